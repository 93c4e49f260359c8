import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw } from '../helpers/clients.js';
import { startGatewayFromFile, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

let dir: string;
let file: string;
let gw: TestGateway;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sluice-cli-'));
  file = writeConfig(
    dir,
    `listen: 127.0.0.1:0
logLevel: silent
agents:
  alice: { role: dev }
roles:
  dev: { default: allow }
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`,
  );
  gw = await startGatewayFromFile(file);
  base = gw.url.replace('/mcp', '');
});
afterAll(async () => gw?.stop());

const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
const echo = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'hi' } } });

describe('operator commands', () => {
  let agentToken: string;
  let adminToken: string;

  it('creates a token once, stores only its hash, and the running gateway accepts it', async () => {
    const created = await runSluice(['token', 'create', 'alice', '-c', file]);
    expect(created.code).toBe(0);
    agentToken = created.stdout.trim();
    expect(agentToken).toMatch(/^slc_[A-Za-z0-9_-]{40,}$/);
    const stored = readFileSync(path.join(dir, '.sluice/tokens.json'), 'utf8');
    expect(stored).not.toContain(agentToken);
    expect((await postRaw(gw.url, init, { authorization: `Bearer ${agentToken}` })).status).toBe(200);
    const unknown = await runSluice(['token', 'create', 'mallory', '-c', file]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/no agent "mallory"/);
  });

  it('pauses and resumes the gateway with an operator token, and refuses an agent token', async () => {
    adminToken = (await runSluice(['token', 'create', '--admin', '-c', file])).stdout.trim();
    const opened = await postRaw(gw.url, init, { authorization: `Bearer ${agentToken}` });
    const headers = { authorization: `Bearer ${agentToken}`, 'mcp-session-id': opened.headers.get('mcp-session-id')! };

    const asAgent = await runSluice(['pause', '-c', file, '--url', base, '--token', agentToken]);
    expect(asAgent.code).not.toBe(0);
    expect(asAgent.stderr).toMatch(/403/);

    expect((await runSluice(['pause', '-c', file, '--url', base, '--token', adminToken])).stdout).toMatch(/paused/);
    expect(JSON.stringify((await postRaw(gw.url, echo, headers)).json())).toMatch(/paused by the operator/);
    expect((await runSluice(['resume', '-c', file, '--url', base, '--token', adminToken])).stdout).toMatch(/resumed/);
    expect(JSON.stringify((await postRaw(gw.url, echo, headers)).json())).toContain('Echo: hi');
  });

  it('lists sessions with their labels and resets an agent\'s label', async () => {
    const list = await runSluice(['session', 'list', '-c', file, '--url', base], 30_000);
    expect(list.code).not.toBe(0); // no token given and none in the environment
    const withToken = await runSluice(['session', 'list', '-c', file, '--url', base, '--token', adminToken]);
    expect(withToken.stdout).toMatch(/alice\s+http\s+untrusted\/public/);
    const reset = await runSluice(['session', 'reset', '--agent', 'alice', '-c', file, '--url', base, '--token', adminToken]);
    expect(reset.code).toBe(0);
    const after = await runSluice(['session', 'list', '-c', file, '--url', base, '--token', adminToken]);
    expect(after.stdout).toMatch(/alice\s+http\s+trusted\/public/);
  });
});
