import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2, postRaw } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING, OPEN_ACCESS } from '../helpers/servers.js';
import { spawnSluiceStdio, writeConfig } from '../helpers/sluice-cli.js';

/** Client input checked before anything is forwarded; what foreign clients need to hear; upstream instructions. */
let gw: TestGateway;
let secured: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\n${OPEN_ACCESS}mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
  secured = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\nagents:\n  a: { role: r }\nroles:\n  r: { default: allow }\nmcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
});
afterAll(async () => {
  await gw?.stop();
  await secured?.stop();
});

const init = (params: unknown) => postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }));
const good = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'edge', version: '1' } };

describe('client input is checked before it is forwarded', () => {
  it('refuses a _meta that is not an object, naming it, in every era — and fast, not after the upstream timeout', async () => {
    const opened = await init(good);
    const session = opened.headers.get('mcp-session-id')!;
    for (const meta of [null, 5, 'x', []]) {
      const started = performance.now();
      const res = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'm' }, _meta: meta } }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
      expect(res.json(), JSON.stringify(meta)).toMatchObject({ error: { code: -32602, message: 'Invalid params: "_meta" must be an object' } });
      expect(performance.now() - started).toBeLessThan(2000);
    }
    const ok = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'm' }, _meta: {} } }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    expect(ok.json()).toMatchObject({ result: { content: [{ text: 'Echo: m' }] } });
  });

  it('answers initialize with missing or mistyped params with -32602, and opens no session', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /"protocolVersion" must be a string/],
      [{ ...good, protocolVersion: 5 }, /"protocolVersion" must be a string/],
      [{ ...good, capabilities: 'x' }, /"capabilities" must be an object/],
      [{ ...good, capabilities: undefined }, /"capabilities" must be an object/],
      [{ ...good, clientInfo: 7 }, /"clientInfo" must be an object/],
      [{ ...good, clientInfo: { name: 'x' } }, /"clientInfo.name" and "clientInfo.version" must be strings/],
    ];
    for (const [params, message] of cases) {
      const res = await init(params);
      expect(res.json(), JSON.stringify(params)).toMatchObject({ error: { code: -32602, message } });
      expect(res.headers.get('mcp-session-id')).toBeNull();
    }
    expect((await init(good)).headers.get('mcp-session-id')).toMatch(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{22}$/);
  });
});

describe('what clients others wrote need to hear', () => {
  it('tells an OAuth-minded client, in the 401 challenge, to send a sluice token instead', async () => {
    const res = await postRaw(secured.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: good }));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="sluice", error="invalid_token", error_description="[^"]*Authorization: Bearer <token>/);
  });

  it('passes on the upstreams\' instructions, under each server\'s name, in initialize and server/discover', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const text = client.getInstructions() ?? '';
    expect(text).toMatch(/^sluice is an MCP gateway/);
    const upstream = gw.gateway.upstreams[0].instructions ?? '';
    expect(upstream.length).toBeGreaterThan(20); // server-everything has instructions of its own
    expect(text).toContain(`## everything (tools and prompts prefixed "everything")\n${upstream.trim().slice(0, 200)}`);
    await client.close();
    const discover = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }));
    expect((discover.json() as { result: { instructions: string } }).result.instructions).toContain('## everything');
  });

  it('answers a stdio client it has no identity for with an error that says why, instead of a dead pipe', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-stdio-noid-'));
    const config = writeConfig(dir, `logLevel: error\ndataDir: ${JSON.stringify(path.join(dir, 'data'))}\nagents:\n  a: { role: r }\nroles:\n  r: { default: allow }\nmcpServers: {}\n`);
    const child = spawnSluiceStdio(config);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: good })}\n`);
    const deadline = Date.now() + 15_000;
    while (!out.includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(out.split('\n')[0])).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringMatching(/needs an identity: set auth.stdioAgent/) } });
    expect(err).toMatch(/needs an identity/);
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
  }, 30_000);
});
