import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2, postRaw, rawSession } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { defaultYaml, makeSandbox } from '../helpers/servers.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway(defaultYaml(makeSandbox(), 'http:\n  maxBodyBytes: 65536'));
});
afterAll(async () => gw?.stop());

/** A request with headers fetch will not let us forge (Host). */
function rawHttp(port: number, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('JSON-RPC envelope checks', () => {
  it('answers malformed JSON with -32700', async () => {
    const res = await postRaw(gw.url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect((res.json() as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('answers a wrong jsonrpc version, a non-object and a bad id with -32600', async () => {
    for (const body of ['{"jsonrpc":"1.0","id":1,"method":"ping"}', '"just a string"', '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', '{"jsonrpc":"2.0","id":1}']) {
      const res = await postRaw(gw.url, body);
      expect(res.status, body).toBe(400);
      expect((res.json() as { error: { code: number } }).error.code, body).toBe(-32600);
    }
  });

  it('refuses method names and string ids over 256 bytes', async () => {
    const session = await rawSession(gw.url);
    const longMethod = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x'.repeat(257) }), { 'mcp-session-id': session.id });
    expect((longMethod.json() as { error: { code: number; message: string } }).error).toMatchObject({ code: -32600, message: expect.stringMatching(/256 bytes/) });
    const longId = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 'i'.repeat(300), method: 'ping' }), { 'mcp-session-id': session.id });
    expect((longId.json() as { error: { code: number } }).error.code).toBe(-32600);
  });

  it('answers an unknown method with -32601 and bad params with -32602', async () => {
    const session = await rawSession(gw.url);
    expect((await session.call('tools/teleport', {})).body.error.code).toBe(-32601);
    expect((await session.call('tools/call', { name: 42 })).body.error.code).toBe(-32602);
    const arrayParams = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: [1, 2] }), { 'mcp-session-id': session.id });
    expect((arrayParams.json() as { error: { code: number } }).error.code).toBe(-32602);
  });

  it('answers an oversized body with 413 and a message naming the limit, and keeps serving', async () => {
    const session = await rawSession(gw.url);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'x'.repeat(70_000) } } });
    const res = await postRaw(gw.url, big, { 'mcp-session-id': session.id });
    expect(res.status).toBe(413);
    expect(res.text).toMatch(/65536 bytes/);
    const ok = await session.call('tools/call', { name: 'everything__echo', arguments: { message: 'small' } });
    expect(ok.body.result.content[0].text).toBe('Echo: small');
  });

  it('answers a body streamed past the limit with the 413 every time, never a dropped socket', async () => {
    const session = await rawSession(gw.url);
    // 8 MiB, far over the 64 KiB limit, sent in chunks without a Content-Length: the 413 must still arrive.
    const chunk = Buffer.alloc(256 * 1024, 'x');
    for (let round = 0; round < 5; round++) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 32; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const res = await fetch(gw.url, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-session-id': session.id }, body, duplex: 'half' } as RequestInit);
      expect(res.status, `round ${round}`).toBe(413);
      expect(await res.text()).toMatch(/65536 bytes/);
    }
    // With a Content-Length that already says it is too big, the body still arrives and must not meet a closed socket.
    const whole = Buffer.alloc(16 * 1024 * 1024, 'x');
    for (let round = 0; round < 5; round++) {
      const res = await fetch(gw.url, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-session-id': session.id }, body: whole });
      expect(res.status, `sized round ${round}`).toBe(413);
    }
    const ok = await session.call('tools/call', { name: 'everything__echo', arguments: { message: 'after' } });
    expect(ok.body.result.content[0].text).toBe('Echo: after');
  });

  it('allows batches only in the revision that has them, and at most 100', async () => {
    const modern = await rawSession(gw.url, '2025-11-25');
    const batch = JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    const refused = await postRaw(gw.url, batch, { 'mcp-session-id': modern.id });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/batches are not allowed/);

    const old = await rawSession(gw.url, '2025-03-26');
    const accepted = await postRaw(gw.url, batch, { 'mcp-session-id': old.id });
    expect(accepted.status).toBe(200);
    expect((accepted.json() as { id: number }[]).map((r) => r.id).sort()).toEqual([1, 2]);
    const tooMany = JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    const refusedBig = await postRaw(gw.url, tooMany, { 'mcp-session-id': old.id });
    expect(refusedBig.status).toBe(400);
    expect(refusedBig.text).toMatch(/at most 100|1 to 100/);
  });

  it('rejects a non-JSON content type with 415', async () => {
    const res = await fetch(gw.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(res.status).toBe(415);
  });
});

describe('HTTP hygiene', () => {
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });

  it('refuses a foreign Host header (DNS rebinding) with 403', async () => {
    const port = Number(new URL(gw.url).port);
    const res = await rawHttp(port, { host: `evil.example:${port}`, accept: 'application/json, text/event-stream' }, init);
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/Invalid Host/);
    const local = await rawHttp(port, { host: `localhost:${port}`, accept: 'application/json, text/event-stream' }, init);
    expect(local.status).toBe(200);
  });

  it('refuses a foreign Origin with 403', async () => {
    const res = await postRaw(gw.url, init, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.text).toMatch(/Invalid Origin/);
    const local = await postRaw(gw.url, init, { origin: 'http://localhost:3000' });
    expect(local.status).toBe(200);
  });

  it('issues unguessable session ids and refuses unknown ones with 404', async () => {
    const a = await rawSession(gw.url);
    const b = await rawSession(gw.url);
    expect(a.id).toMatch(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{22}$/);
    expect(a.id).not.toBe(b.id);
    const res = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'mcp-session-id': '0'.repeat(32) });
    expect(res.status).toBe(404);
    const missing = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(missing.status).toBe(400);
  });

  it('binds a session to the client that opened it', async () => {
    const opened = await postRaw(gw.url, init, { authorization: 'Bearer alice-token' });
    const id = opened.headers.get('mcp-session-id')!;
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect((await postRaw(gw.url, ping, { 'mcp-session-id': id, authorization: 'Bearer alice-token' })).status).toBe(200);
    expect((await postRaw(gw.url, ping, { 'mcp-session-id': id, authorization: 'Bearer mallory-token' })).status).toBe(404);
    expect((await postRaw(gw.url, ping, { 'mcp-session-id': id })).status).toBe(404);
  });

  it('ends a session on DELETE', async () => {
    const session = await rawSession(gw.url);
    const del = await fetch(gw.url, { method: 'DELETE', headers: { 'mcp-session-id': session.id } });
    expect(del.status).toBe(200);
    expect((await session.call('ping')).status).toBe(404);
  });

  it('keeps serving other sessions while one sends garbage', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const garbage = Array.from({ length: 20 }, () => postRaw(gw.url, '{{{{'));
    const calls = Array.from({ length: 5 }, (_, i) => client.callTool({ name: 'everything__echo', arguments: { message: `m${i}` } }));
    const [bad, good] = await Promise.all([Promise.all(garbage), Promise.all(calls)]);
    expect(bad.every((r) => r.status === 400)).toBe(true);
    expect(good.map((r) => (r.content as { text: string }[])[0].text)).toEqual(['Echo: m0', 'Echo: m1', 'Echo: m2', 'Echo: m3', 'Echo: m4']);
    await client.close();
  });
});

describe('stateless revision (2026-07-28) on the wire', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers = { 'mcp-protocol-version': '2026-07-28' };

  it('serves a request with no session and no initialize', async () => {
    const res = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'hi' }, _meta: meta } }), { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'everything__echo' });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = res.json() as { result: { content: { text: string }[]; resultType: string; _meta: Record<string, unknown> } };
    expect(body.result.content[0].text).toBe('Echo: hi');
    expect(body.result.resultType).toBe('complete');
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'sluice' });
  });

  it('refuses headers that disagree with the body, unknown versions and a missing envelope', async () => {
    const mismatch = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }), { ...headers, 'mcp-method': 'tools/call' });
    expect(mismatch.status).toBe(400);
    expect((mismatch.json() as { error: { code: number } }).error.code).toBe(-32020);
    const future = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }), { 'mcp-protocol-version': '2099-01-01' });
    expect(future.status).toBe(400);
    expect((future.json() as { error: { code: number; data: { supported: string[] } } }).error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
    const bare = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), headers);
    expect(bare.status).toBe(400);
    const noCaps = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }), headers);
    expect(noCaps.status).toBe(400);
    expect(noCaps.text).toMatch(/clientCapabilities/);
  });

  it('answers methods the revision does not have with 404', async () => {
    const res = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: meta } }), { ...headers, 'mcp-method': 'ping' });
    expect(res.status).toBe(404);
    expect((res.json() as { error: { code: number } }).error.code).toBe(-32601);
  });
});
