/** __proto__ keys in what clients and upstreams send pass through as data and pollute nothing (see test/helpers/prototype-gateway.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTO_JSON } from '../fixtures/prototype-names.js';
import { connectV2, postRaw, rawSession } from '../helpers/clients.js';
import type { TestGateway } from '../helpers/gateway.js';
import { ENVELOPE_JSON, MODERN, expectNoPollution, expectServing, own, startProtoGateway, type Rpc } from '../helpers/prototype-gateway.js';
import { textOf } from '../helpers/secure-gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startProtoGateway();
});
afterAll(async () => gw?.stop());

describe('__proto__ keys in what clients and upstreams send', () => {
  const HOSTILE_META = `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"progressToken":"__proto__","traceparent":"__proto__"}`;

  function expectReceivedAsData(received: Record<string, unknown>): void {
    // The upstream got every __proto__ key as an ordinary own key: data passed through, not a prototype set.
    expect(own(received.arguments, '__proto__')).toEqual({ polluted: true });
    expect(own(received.arguments, 'constructor')).toEqual({ prototype: { polluted: true } });
    expect(own(received, '__proto__')).toEqual({ polluted: true });
    const meta = received._meta as Record<string, unknown>;
    expect(Object.keys(meta).filter((k) => k.startsWith('io.modelcontextprotocol/'))).toEqual([]);
    expect(String(meta.progressToken)).toMatch(/^sluice-\d+$/);
    expect(own(meta, 'constructor')).toEqual({ prototype: { polluted: true } });
    expect(own(meta, '__proto__'), '_meta.__proto__ reached the upstream as data').toEqual({ polluted: true });
  }

  it('passes __proto__ keys in params, arguments and _meta of a legacy call through as data, polluting nothing', async () => {
    const s = await rawSession(gw.url);
    const body = `{"jsonrpc":"2.0","id":"__proto__","method":"tools/call","params":{"name":"proto__echo_params","arguments":${PROTO_JSON},"_meta":${HOSTILE_META},"__proto__":{"polluted":true}}}`;
    const res = await postRaw(gw.url, body, { 'mcp-session-id': s.id, 'mcp-protocol-version': '2025-11-25', accept: 'application/json' });
    expect(res.status).toBe(200);
    const answer = res.json() as Rpc;
    expect(answer.id).toBe('__proto__');
    expectReceivedAsData(JSON.parse(textOf(answer.result)) as Record<string, unknown>);
    expectNoPollution();
    const echo = await postRaw(gw.url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"everything__echo","arguments":{"message":"proto echo","__proto__":{"polluted":true}},"_meta":${HOSTILE_META}}}`, { 'mcp-session-id': s.id, 'mcp-protocol-version': '2025-11-25', accept: 'application/json' });
    expect(textOf((echo.json() as Rpc).result)).toContain('proto echo');
    expectNoPollution();
  });

  it('passes them through the same way for a stateless (2026-07-28) call', async () => {
    const body = `{"jsonrpc":"2.0","id":"__proto__","method":"tools/call","params":{"name":"proto__echo_params","arguments":${PROTO_JSON},"__proto__":{"polluted":true},"_meta":${HOSTILE_META.slice(0, -1)},${ENVELOPE_JSON}}}}`;
    const res = await postRaw(gw.url, body, { 'mcp-protocol-version': MODERN, accept: 'application/json' });
    expect(res.status).toBe(200);
    const answer = res.json() as Rpc;
    expect(answer.id).toBe('__proto__');
    expectNoPollution();
    expectReceivedAsData(JSON.parse(textOf(answer.result)) as Record<string, unknown>);
  });

  it('takes __proto__ keys in an upstream result as data: passed on, never a prototype, never isError', async () => {
    const s = await rawSession(gw.url);
    const res = await s.call('tools/call', { name: 'proto__proto_result', arguments: {} });
    const result = res.body.result as Record<string, unknown>;
    expect(textOf(result)).toBe('proto result');
    expect(Object.hasOwn(result, 'isError')).toBe(false);
    expect(own(result, '__proto__')).toEqual({ polluted: true });
    expect(own(result.structuredContent, '__proto__')).toEqual({ polluted: true });
    expect(own((result.content as unknown[])[0], '__proto__')).toEqual({ polluted: true });
    expectNoPollution();
    // The SDK client parses the same result without being polluted either.
    const client = await connectV2(gw.url, 'legacy');
    const viaSdk = await client.callTool({ name: 'proto__proto_result', arguments: {} });
    expect(textOf(viaSdk)).toBe('proto result');
    expect(viaSdk.isError).not.toBe(true);
    await client.close();
    expectNoPollution();
    await expectServing(gw);
  });
});
