import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING } from '../helpers/servers.js';

/**
 * The 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages?sessionId=…), for clients and configs that speak
 * only it — here the v1 TypeScript SDK's SSEClientTransport — behind the same token check as /mcp.
 */
let gw: TestGateway;
let token: string;
let other: string;
let base: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-legacy-sse-'));
  gw = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\ndataDir: ${JSON.stringify(path.join(dir, 'data'))}\nagents:\n  old: { role: r }\nroles:\n  r: { default: allow, tools: { "everything__get-env": deny } }\nmcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
  token = new FileTokenStore(gw.gateway.config.security.tokensFile).create('old').token;
  other = new FileTokenStore(gw.gateway.config.security.tokensFile).create('old').token;
  base = gw.url.replace('/mcp', '');
});
afterAll(async () => gw?.stop());

function transport(bearer: string | undefined): SSEClientTransport {
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  return new SSEClientTransport(new URL(`${base}/sse`), {
    requestInit: { headers },
    eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
  });
}

describe('the HTTP+SSE transport of 2024-11-05', () => {
  it('serves the v1 SDK\'s SSEClientTransport: lists, calls, and refuses by the same rules', async () => {
    const client = new Client({ name: 'old-sse', version: '1' });
    await client.connect(transport(token));
    expect(client.getServerVersion()?.name).toBe('sluice');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).not.toContain('everything__get-env');
    expect(await client.callTool({ name: 'everything__echo', arguments: { message: 'over sse' } })).toMatchObject({ content: [{ type: 'text', text: 'Echo: over sse' }] });
    const refused = await client.callTool({ name: 'everything__get-env', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/refused this call at the tool-rule step/);
    await client.close();
  });

  it('needs a token for the stream and for the posts, and keeps a session to the client that opened it', async () => {
    expect((await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    const res = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\/messages\?sessionId=[0-9a-f]+)/.exec(first)?.[1];
    expect(endpoint).toBeDefined();
    const post = (bearer: string) => fetch(`${base}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    expect((await post(other)).status).toBe(404); // the same agent, another token: not their stream
    expect((await post(token)).status).toBe(202);
    await reader.cancel();
  });
});
