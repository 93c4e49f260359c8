/** Clients naming what nobody offers — tools, prompts, resources, methods, ids, sessions — get clean errors (see test/helpers/prototype-gateway.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_NAMES, NEVER_OFFERED, PROTO_JSON } from '../fixtures/prototype-names.js';
import { connectV2, postRaw, rawSession } from '../helpers/clients.js';
import type { TestGateway } from '../helpers/gateway.js';
import { expectEchoAnswers, expectNoPollution, expectServing, startProtoGateway, statelessRaw } from '../helpers/prototype-gateway.js';
import { textOf } from '../helpers/secure-gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startProtoGateway();
});
afterAll(async () => gw?.stop());

describe('clients naming what nobody offers', () => {
  const UNKNOWN_TOOLS = [
    ...HOSTILE_NAMES,
    ...NEVER_OFFERED,
    'everything__toString',
    'everything____proto__',
    'everything__constructor',
    'everything__hasOwnProperty',
    'proto__prototype',
    'proto__isPrototypeOf',
    'proto____lookupGetter__',
  ];
  const UNKNOWN_URIS = ['valueOf', 'hasOwnProperty', '__defineGetter__', ...NEVER_OFFERED, 'everything__toString', 'proto://constructor'];

  it('refuses tools/call of inherited names with "Unknown tool" (SDK client)', async () => {
    const client = await connectV2(gw.url, 'legacy');
    for (const name of UNKNOWN_TOOLS) await expect(client.callTool({ name, arguments: {} }), name).rejects.toThrow(`Unknown tool: ${name}`);
    expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'after' } }))).toContain('after');
    await client.close();
    await expectServing(gw);
    expectNoPollution();
  });

  it('refuses tools/call, prompts/get, resources/read, completion/complete and subscribe with clean errors (raw legacy session)', async () => {
    const s = await rawSession(gw.url);
    for (const name of UNKNOWN_TOOLS) {
      const r = await s.call('tools/call', { name, arguments: {} });
      expect(r.status, name).toBe(200);
      expect(r.body.error, name).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
      const p = await s.call('prompts/get', { name, arguments: {} });
      expect(p.body.error, name).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
    }
    for (const uri of UNKNOWN_URIS) {
      const r = await s.call('resources/read', { uri });
      expect(r.body.error, uri).toEqual({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
      const sub = await s.call('resources/subscribe', { uri });
      expect(sub.body.error?.code, uri).toBe(-32002);
      const c = await s.call('completion/complete', { ref: { type: 'ref/resource', uri }, argument: { name: '__proto__', value: '' } });
      expect(c.body.error?.code, uri).toBe(-32002);
    }
    for (const name of ['__proto__', 'constructor', 'everything____proto__']) {
      const c = await s.call('completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: 'x', value: '' } });
      expect(c.body.error, name).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
    }
    // A name that is not a string at all, with an inherited name inside it.
    const odd = await s.call('tools/call', { name: JSON.parse(PROTO_JSON), arguments: {} });
    expect(odd.body.error).toEqual({ code: -32602, message: '"name" must be a non-empty string' });
    const ok = await s.call('tools/call', { name: 'everything__echo', arguments: { message: 'raw after' } });
    expect(textOf(ok.body.result)).toContain('raw after');
    await expectServing(gw);
    expectNoPollution();
  });

  it('refuses the same names from a stateless (2026-07-28) client', async () => {
    for (const name of UNKNOWN_TOOLS) {
      const r = await statelessRaw(gw.url, 'tools/call', `"name":${JSON.stringify(name)},"arguments":{}`, { 'mcp-method': 'tools/call' });
      expect(r.body.error, name).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
      const p = await statelessRaw(gw.url, 'prompts/get', `"name":${JSON.stringify(name)}`);
      expect(p.body.error, name).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
    }
    for (const uri of UNKNOWN_URIS) {
      const r = await statelessRaw(gw.url, 'resources/read', `"uri":${JSON.stringify(uri)}`);
      expect(r.body.error, uri).toEqual({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });
    }
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('answers inherited method names with "method not found", and ignores responses and sessions it never issued', async () => {
    const s = await rawSession(gw.url);
    const methods = [...HOSTILE_NAMES, ...NEVER_OFFERED, ...HOSTILE_NAMES.map((n) => `tools/${n}`)];
    for (const method of methods) {
      const r = await s.call(method, JSON.parse(PROTO_JSON));
      expect(r.body.error, method).toEqual({ code: -32601, message: `Method not found: ${method}` });
      const stateless = await statelessRaw(gw.url, method, '', { 'mcp-method': method });
      expect(stateless.status, method).toBe(404);
      expect(stateless.body.error?.code, method).toBe(-32601);
    }
    const headers = { 'mcp-session-id': s.id, 'mcp-protocol-version': '2025-11-25' };
    for (const n of HOSTILE_NAMES) {
      // A notification with an inherited method, and answers to requests sluice never sent.
      expect((await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', method: n, params: JSON.parse(PROTO_JSON) }), headers)).status).toBe(202);
      expect((await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', method: `notifications/${n}` }), headers)).status).toBe(202);
      for (const id of [n, `sluice-${n}`]) {
        expect((await postRaw(gw.url, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${PROTO_JSON}}`, headers)).status).toBe(202);
        expect((await postRaw(gw.url, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":1,"message":"x"}}`, headers)).status).toBe(202);
      }
      // A request id that is an inherited name comes back as that id.
      const byId = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: n, method: 'ping' }), { ...headers, accept: 'application/json' });
      expect(byId.json()).toEqual({ jsonrpc: '2.0', id: n, result: {} });
      // A session id that is an inherited name is no session.
      const session = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'mcp-session-id': n });
      expect(session.status, n).toBe(404);
    }
    expect((await s.call('ping')).body.result).toEqual({});
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });
});
