import type { Client } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { FILESYSTEM } from '../helpers/servers.js';
import { connectWithToken } from '../helpers/clients.js';

/**
 * An agent is one actor. Session A is opened early and stays clean; session B of the same agent reads
 * personal data; then A writes that data, base64-encoded so that no filter recognises it. Before, A's write
 * went through (sessions open at the same time did not raise each other). Every check now uses the join of
 * the session's label and the agent's mark — unless the role explicitly isolates its sessions.
 */
let gw: TestGateway;
let sandbox: string;
const tokens: Record<string, string> = {};
const decisions: DecisionEvent[] = [];
const EMAIL = 'jane.doe@example.com';

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-agent-taint-'));
  sandbox = path.join(root, 'sandbox');
  mkdirSync(sandbox);
  writeFileSync(path.join(sandbox, 'customers.txt'), `Customer: Jane Doe <${EMAIL}>\n`);
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  bob: { role: dev }
  shared: { role: kiosk }
roles:
  dev:
    default: deny
    tools: { "files__*": allow }
    paths: { allow: [${JSON.stringify(sandbox + '/**')}] }
    filters: { secret: label, pii: label, injection: label }
  kiosk:
    default: deny
    isolateSessions: true
    tools: { "files__*": allow }
    paths: { allow: [${JSON.stringify(sandbox + '/**')}] }
    filters: { secret: label, pii: label, injection: label }
mcpServers:
  files:
    command: node
    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]
    label: { integrity: trusted }
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  tokens.bob = store.create('bob').token;
  tokens.shared = store.create('shared').token;
  gw.gateway.onDecision((e) => decisions.push(e));
});
afterAll(async () => gw?.stop());

const connect = (token: string): Promise<Client> => connectWithToken(gw.url, token, 'agent-taint');

const write = (c: Client, name: string, content: string) => c.callTool({ name: 'files__write_file', arguments: { path: path.join(sandbox, name), content } });
const readCustomers = (c: Client) => c.callTool({ name: 'files__read_text_file', arguments: { path: path.join(sandbox, 'customers.txt') } });

describe('agent-wide taint', () => {
  it('refuses the early session\'s base64-encoded write of what a later session read, and records it', async () => {
    const early = await connect(tokens.bob);
    expect((await write(early, 'before.txt', 'nothing yet')).isError).toBeFalsy(); // clean so far
    const reader = await connect(tokens.bob);
    expect(textOf(await readCustomers(reader))).toContain(EMAIL);
    expect(textOf(await write(reader, 'copy.txt', EMAIL))).toMatch(/information-flow step: the session holds pii data/);

    const smuggled = await write(early, 'smuggled.txt', Buffer.from(EMAIL).toString('base64'));
    expect(smuggled.isError).toBe(true);
    expect(textOf(smuggled)).toMatch(/refused this call at the information-flow step: the session holds pii data/);
    const record = [...decisions].reverse().find((d) => d.target === 'files__write_file' && d.session !== undefined && d.outcome === 'deny');
    expect(record).toMatchObject({ step: 'information-flow', outcome: 'deny', agent: 'bob' });
    // A session opened only now starts at the mark as well.
    const late = await connect(tokens.bob);
    expect((await write(late, 'late.txt', 'x')).isError).toBe(true);
    for (const c of [early, reader, late]) await c.close();
  });

  it('keeps sessions apart for a role that asks for it (isolateSessions: a shared identity of several people)', async () => {
    const first = await connect(tokens.shared);
    expect((await write(first, 'kiosk-before.txt', 'x')).isError).toBeFalsy();
    const second = await connect(tokens.shared);
    await readCustomers(second);
    expect((await write(second, 'kiosk-copy.txt', EMAIL)).isError).toBe(true); // the reader itself is still refused
    expect((await write(first, 'kiosk-other.txt', 'unrelated')).isError).toBeFalsy(); // the other person is not
    for (const c of [first, second]) await c.close();
  });
});
