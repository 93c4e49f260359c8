import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { postRaw } from '../helpers/clients.js';
import { textOf } from '../helpers/secure-gateway.js';
import { EVERYTHING, FILESYSTEM } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

/**
 * What the embedded state store must carry across a restart: an agent's taint (else a restart launders it),
 * the operator's pause, and an "always" approval grant. Each gateway here is a fresh process-level start on
 * the same data dir.
 */
let root: string;
let sandbox: string;
let yaml: string;
let gw: TestGateway | undefined;
let tokens: { alice: string; admin: string };

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sluice-restart-'));
  sandbox = path.join(root, 'sandbox');
  mkdirSync(sandbox);
  writeFileSync(path.join(sandbox, 'customers.txt'), 'Contact jane.doe@example.com or call +44 20 7946 0958.\n');
  yaml = `listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  alice: { role: dev }
roles:
  dev:
    default: deny
    tools:
      "files__*": allow
      "everything__echo": approve
      "everything__get-sum": approve
    paths: { allow: [${JSON.stringify(sandbox + '/**')}] }
    filters: { secret: redact, pii: label, injection: label }
approvals:
  timeoutSeconds: 20
mcpServers:
  files:
    command: node
    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`;
});
afterAll(async () => gw?.stop());

async function restart(): Promise<TestGateway> {
  await gw?.stop();
  gw = await startTestGateway(yaml);
  return gw;
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'restart-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw!.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const admin = async (method: 'GET' | 'POST', p: string, body?: unknown) => {
  const res = await fetch(gw!.url.replace('/mcp', p), { method, headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) };
};

const write = (c: Client, name: string) => c.callTool({ name: 'files__write_file', arguments: { path: path.join(sandbox, name), content: 'copied' } });

describe('a restart', () => {
  it('does not launder taint: the same agent, after a restart, still may not write down what it read', async () => {
    await restart();
    const store = new FileTokenStore(gw!.gateway.config.security.tokensFile);
    tokens = { alice: store.create('alice').token, admin: store.create('admin:operator').token };
    let alice = await connect(tokens.alice);
    expect(textOf(await write(alice, 'before.txt'))).not.toMatch(/refused/); // clean: writes go through
    expect(textOf(await alice.callTool({ name: 'files__read_text_file', arguments: { path: path.join(sandbox, 'customers.txt') } }))).toContain('jane.doe');
    expect(textOf(await write(alice, 'leak-1.txt'))).toMatch(/refused this call at the information-flow step: the session holds pii data/);
    await alice.close();

    await restart();
    alice = await connect(tokens.alice);
    const after = await write(alice, 'leak-2.txt');
    expect(after.isError).toBe(true);
    expect(textOf(after)).toMatch(/refused this call at the information-flow step: the session holds pii data/);
    // Only the operator lowers it — and that, too, holds across a restart.
    expect((await admin('POST', '/admin/sessions/reset', { agent: 'alice' })).status).toBe(200);
    await alice.close();
    await restart();
    alice = await connect(tokens.alice);
    expect(textOf(await write(alice, 'after-reset.txt'))).not.toMatch(/refused/);
    await alice.close();
  });

  it('keeps the pause on', async () => {
    expect((await admin('POST', '/admin/pause')).status).toBe(200);
    await restart();
    const alice = await connect(tokens.alice);
    expect(textOf(await write(alice, 'paused.txt'))).toMatch(/refused this call at the pause step/);
    expect((await admin('GET', '/admin/status')).body.paused).toBe(true);
    expect((await admin('POST', '/admin/resume')).status).toBe(200);
    expect(textOf(await write(alice, 'resumed.txt'))).not.toMatch(/refused/);
    await alice.close();
  });

  it('keeps an "always" grant', async () => {
    const alice = await connect(tokens.alice);
    const call = alice.callTool({ name: 'everything__echo', arguments: { message: 'granted' } });
    let id = '';
    await waitFor(async () => ((id = (await admin('GET', '/admin/approvals')).body.pending[0]?.id ?? ''), id !== ''), 5000, 'a pending approval');
    expect((await admin('POST', '/admin/approvals/decide', { id, decision: 'approve', scope: 'always' })).status).toBe(200);
    expect(textOf(await call)).toBe('Echo: granted');
    await alice.close();

    await restart();
    const again = await connect(tokens.alice);
    // Covered by the grant: no new pending approval, the result at once.
    expect(textOf(await again.callTool({ name: 'everything__echo', arguments: { message: 'still granted' } }))).toBe('Echo: still granted');
    expect((await admin('GET', '/admin/approvals')).body.pending).toEqual([]);
    await again.close();
  });

  it('ends an "until restart" grant (the console\'s choice) with the process that made it', async () => {
    const sum = (c: Client, a: number) => c.callTool({ name: 'everything__get-sum', arguments: { a, b: 1 } });
    const pendingId = async () => {
      let id = '';
      await waitFor(async () => ((id = (await admin('GET', '/admin/approvals')).body.pending[0]?.id ?? ''), id !== ''), 5000, 'a pending approval');
      return id;
    };
    const alice = await connect(tokens.alice);
    const first = sum(alice, 1);
    expect((await admin('POST', '/admin/approvals/decide', { id: await pendingId(), decision: 'approve', scope: 'always', untilRestart: true })).status).toBe(200);
    expect(textOf(await first)).toMatch(/2/);
    // Until the restart, it covers the calls: no question asked.
    expect(textOf(await sum(alice, 2))).toMatch(/3/);
    await alice.close();

    await restart();
    const again = await connect(tokens.alice);
    const after = sum(again, 3);
    // A human is asked again; denied, the call is refused.
    expect((await admin('POST', '/admin/approvals/decide', { id: await pendingId(), decision: 'deny' })).status).toBe(200);
    expect((await after).isError).toBe(true);
    await again.close();
  });

  it('lets a legacy session carry on with the same Mcp-Session-Id, for its own client only', async () => {
    const auth = { authorization: `Bearer ${tokens.alice}` };
    const init = await postRaw(gw!.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }), auth);
    const id = init.headers.get('mcp-session-id')!;
    expect(id).toMatch(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{22}$/);
    await restart();
    const list = (token: string) => postRaw(gw!.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { authorization: `Bearer ${token}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    // Someone else presenting the id gets the same 404 as for an unknown one.
    const mallory = new FileTokenStore(gw!.gateway.config.security.tokensFile).create('alice').token;
    expect((await list(mallory)).status).toBe(404);
    const res = await list(tokens.alice);
    expect(res.status).toBe(200);
    expect(((res.json() as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name))).toContain('files__read_text_file');
    const [session] = [...gw!.gateway.sessions.all.values()];
    expect(session.protocolVersion).toBe('2025-06-18');
    // Ended by DELETE, it is gone for good.
    const del = await fetch(gw!.url, { method: 'DELETE', headers: { ...auth, 'mcp-session-id': id } });
    expect(del.status).toBe(200);
    await restart();
    expect((await list(tokens.alice)).status).toBe(404);
  });
});
