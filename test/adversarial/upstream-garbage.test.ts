import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../src/cli/serve.js';
import { parseConfig } from '../../src/config/load.js';
import { StdioTransport } from '../../src/protocol/stdio-transport.js';
import { checkUpstreamMessage, MalformedMessageError, MAX_MESSAGE_DEPTH } from '../../src/protocol/upstream-message.js';
import { GarbageGuard } from '../../src/upstream/garbage-guard.js';
import type { Upstream } from '../../src/upstream/upstream.js';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { EVERYTHING, OPEN_ACCESS, ROOT } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Upstreams are untrusted input (issue 10): whatever one server writes — wrong types, deep nesting, huge or
 * broken lines, floods — it may fail its own calls, never the gateway. The gateway runs in this process, so
 * an exception that escapes here is the gateway going down.
 */

const GARBAGE = path.join(ROOT, 'test/fixtures/garbage-server.mjs');
const CALL_TIMEOUT = 5000;

function yaml(): string {
  return `listen: 127.0.0.1:0
logLevel: silent
${OPEN_ACCESS}mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  garbage:
    command: node
    args: [${JSON.stringify(GARBAGE)}]
`;
}

let gw: TestGateway;
let client: Client;
/** What escaped to the process: in production, each of these would have taken the gateway down. */
const escaped: unknown[] = [];
const onEscape = (err: unknown) => void escaped.push(err);

beforeAll(async () => {
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
  gw = await startTestGateway(yaml());
  client = await connectV2(gw.url, 'legacy');
});
afterAll(async () => {
  await client?.close();
  await gw?.stop();
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
});

const upstream = (name: string): Upstream => gw.gateway.upstreams.find((u) => u.name === name)!;
const counters = () => {
  const u = upstream('garbage');
  return { garbage: u.garbage, unmatched: u.unmatched };
};

/** A call bounded by a short timeout: the answer's text, and whether it was an error (result or JSON-RPC). */
async function callGarbage(kind: string): Promise<{ text: string; isError: boolean }> {
  try {
    const result = await client.callTool({ name: 'garbage__send_garbage', arguments: { kind } }, { timeout: CALL_TIMEOUT });
    return { text: textOf(result), isError: result.isError === true };
  } catch (err) {
    return { text: (err as Error).message, isError: true };
  }
}

async function expectHealthy(tag: string): Promise<void> {
  expect(escaped.map(String)).toEqual([]);
  const health = await fetch(gw.url.replace('/mcp', '/healthz'));
  expect(health.status).toBe(200);
  const echo = await client.callTool({ name: 'everything__echo', arguments: { message: tag } }, { timeout: CALL_TIMEOUT });
  expect(echo.content).toEqual([{ type: 'text', text: `Echo: ${tag}` }]);
}

type Outcome = 'answer' | 'fails';
type Counter = 'garbage' | 'unmatched';
/** Each kind: whether the call still gets the server's own answer, and which counter must rise (by how much). */
const KINDS: [kind: string, outcome: Outcome, counter: Counter, by: number][] = [
  ['deep-method', 'answer', 'garbage', 1],
  ['deep-params', 'answer', 'garbage', 1],
  ['deep-id', 'answer', 'garbage', 1],
  ['deep-result', 'fails', 'garbage', 1],
  ['jsonrpc-number', 'fails', 'garbage', 1],
  ['id-object', 'answer', 'garbage', 1],
  ['id-infinity', 'answer', 'garbage', 1],
  ['id-long', 'answer', 'garbage', 1],
  ['method-number', 'answer', 'garbage', 2],
  ['method-empty-or-long', 'answer', 'garbage', 2],
  ['params-string', 'answer', 'garbage', 2],
  ['result-number', 'fails', 'garbage', 1],
  ['result-null', 'fails', 'garbage', 1],
  ['error-null', 'fails', 'garbage', 1],
  ['error-string', 'fails', 'garbage', 1],
  ['error-code-string', 'fails', 'garbage', 1],
  ['error-no-message', 'fails', 'garbage', 1],
  ['result-and-error', 'fails', 'garbage', 1],
  ['bare-id', 'fails', 'garbage', 1],
  ['unknown-ids', 'answer', 'unmatched', 4],
  ['huge-line', 'answer', 'garbage', 1],
  ['huge-answer', 'fails', 'garbage', 1],
  ['non-utf8', 'answer', 'garbage', 1],
  ['not-json', 'answer', 'garbage', 3],
  ['not-object', 'answer', 'garbage', 5],
  ['prototype-names', 'answer', 'unmatched', 2],
  ['client-request', 'answer', 'garbage', 1],
];

describe('garbage from an upstream', () => {
  it.each(KINDS)('%s: the call %s, the gateway stays up, %s is counted', async (kind, outcome, counter, by) => {
    escaped.length = 0;
    const before = counters();
    const started = Date.now();
    const { text, isError } = await callGarbage(kind);
    expect(escaped.map(String)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT);
    if (outcome === 'answer') {
      expect(isError, text).toBe(false);
      expect(text).toMatch(new RegExp(`^ok: ${kind}`));
    } else {
      expect(isError).toBe(true);
      expect(text).toMatch(/server "garbage"/);
      expect(text).toMatch(/invalid/);
    }
    await expectHealthy(kind);
    const after = counters();
    expect(after[counter] - before[counter]).toBeGreaterThanOrEqual(by);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps invalid UTF-8 inside an answer as replacement characters', async () => {
    const { text, isError } = await callGarbage('non-utf8');
    expect(isError).toBe(false);
    expect(text).toBe('ok: non-utf8 caf\uFFFD');
  });

  it('answers a request to its client that has garbage params with an error, without asking any client', async () => {
    const { text } = await callGarbage('client-request');
    expect(text).toMatch(/the client answered \{"code":-32600,"message":"Invalid Request: .*params/);
  });

  it('drops list entries the catalog cannot read, and keeps the rest', async () => {
    const garbage = upstream('garbage');
    const refreshed = once(garbage, 'change');
    expect(await callGarbage('bad-list')).toEqual({ text: 'ok: bad-list', isError: false });
    await refreshed;
    await new Promise((r) => setTimeout(r, 100)); // the catalog is rebuilt on a timer
    expect(escaped.map(String)).toEqual([]);
    expect(garbage.lists.tools.map((t) => t.name)).toEqual(['send_garbage']);
    await expectHealthy('bad-list');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('garbage__send_garbage');
  });

  it('keeps answering other servers\' calls during a flood of 50,000 notifications', async () => {
    const flood = callGarbage('flood');
    let done = false;
    void flood.then(() => (done = true));
    const latencies: number[] = [];
    for (let i = 0; i < 5 && !done; i++) {
      const started = Date.now();
      await expectHealthy(`during the flood ${i}`);
      latencies.push(Date.now() - started);
    }
    const { text, isError } = await flood;
    expect(isError, text).toBe(false);
    expect(text).toBe('ok: flood');
    expect(Math.max(...latencies)).toBeLessThan(1000);
    await expectHealthy('after the flood');
  });

  it('restarts a server that keeps sending garbage, with the usual backoff, logging a line a second, not a line a message', async () => {
    // A gateway of its own, so that the garbage of the cases above does not count, and its log can be read.
    const logged: { level: number; msg: string; upstream?: string; reason?: string }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sluice-data-'));
    const own = await startGateway(parseConfig(`dataDir: ${JSON.stringify(dataDir)}\n${yaml()}`, 'test.yaml'), logger);
    const ownClient = await connectV2(`http://127.0.0.1:${own.address!.port}/mcp`, 'legacy');
    try {
      const garbage = own.gateway.upstreams.find((u) => u.name === 'garbage')!;
      const pid = garbage.pid;
      const started = Date.now();
      const result = await ownClient.callTool({ name: 'garbage__send_garbage', arguments: { kind: 'persistent' } }, { timeout: CALL_TIMEOUT });
      expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/server "garbage" is unavailable \(server "garbage" sent more than 100 invalid messages within 10 s .*restarting it\)/);
      expect(garbage.garbage).toBe(101); // what came after the 101st is never read
      expect(escaped.map(String)).toEqual([]);
      await waitFor(() => garbage.state === 'ready' && garbage.pid !== pid, 10_000, 'the garbage server to be restarted');
      await waitFor(() => own.gateway.catalog.toolRoutes.has('garbage__send_garbage'), 2000, 'its tool back in the catalog');
      expect(garbage.retryDelayMs).toBeGreaterThan(0);
      const again = await ownClient.callTool({ name: 'garbage__send_garbage', arguments: { kind: 'none' } }, { timeout: CALL_TIMEOUT });
      expect(textOf(again)).toBe('ok: none');
      const echo = await ownClient.callTool({ name: 'everything__echo', arguments: { message: 'still here' } }, { timeout: CALL_TIMEOUT });
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: still here' }]);

      const dropped = logged.filter((l) => l.msg === 'dropped an invalid message from upstream');
      expect(dropped.length).toBeGreaterThanOrEqual(1);
      expect(dropped.length).toBeLessThanOrEqual(3);
      for (const line of dropped) expect(line).toMatchObject({ upstream: 'garbage', reason: '"jsonrpc" must be "2.0", not 1' });
      expect(logged.some((l) => l.upstream === 'garbage' && /restarting it/.test(l.msg))).toBe(true);
    } finally {
      await ownClient.close();
      await own.stop();
    }
  });
});

// ---- the check itself, and the transport's line reading ------------------------------------------------------

describe('checkUpstreamMessage', () => {
  const nest = (depth: number, leaf: unknown = 1): unknown => {
    let v = leaf;
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
    return v;
  };

  it('refuses a 100,000-deep value in any field without overflowing the stack, and keeps the id it can use', () => {
    const deep = nest(100_000);
    expect(checkUpstreamMessage({ jsonrpc: '2.0', method: deep })).toMatchObject({ ok: false, reason: 'nested deeper than 64 levels' });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', method: 'm', params: { deep } })).toMatchObject({ ok: false });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: deep, result: {} })).toEqual({ ok: false, reason: '"id" must be a string or a number, not an array' });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 3, result: { deep } })).toEqual({ ok: false, reason: 'nested deeper than 64 levels', id: 3 });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 's', method: 'sampling/createMessage', params: { deep } })).toMatchObject({ ok: false, requestId: 's' });
  });

  it('takes nesting up to the limit (the envelope being level 1)', () => {
    // The envelope, the result { v }, then nest(n, {}): n + 1 more levels.
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 1, result: { v: nest(MAX_MESSAGE_DEPTH - 3, {}) } }).ok).toBe(true);
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 1, result: { v: nest(MAX_MESSAGE_DEPTH - 2, {}) } }).ok).toBe(false);
  });

  it('passes well-formed messages through as they are, and refuses oversized ones', () => {
    const request = { jsonrpc: '2.0', id: 'r', method: 'roots/list', params: { x: [1, 'two', null, true] } };
    expect(checkUpstreamMessage(request)).toEqual({ ok: true, kind: 'request', message: request });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', method: 'notifications/message' })).toMatchObject({ ok: true, kind: 'notification' });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 0, result: {} })).toMatchObject({ ok: true, kind: 'response' });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no', data: [1] } })).toMatchObject({ ok: true, kind: 'response' });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })).toMatchObject({ ok: true, kind: 'response' });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: null, result: {} })).toMatchObject({ ok: false });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(17 * 1024 * 1024) } })).toEqual({ ok: false, reason: 'larger than 16777216 bytes', id: 1 });
    expect(checkUpstreamMessage({ jsonrpc: '2.0', id: 1, result: { items: Array(3_000_000).fill(0) } })).toMatchObject({ ok: false, reason: 'larger than 16777216 bytes' });
  });
});

describe('GarbageGuard', () => {
  it('trips on the 101st invalid message within 10 s, not on 100, nor on many spread out; logs one a second', () => {
    const guard = new GarbageGuard();
    const verdicts = Array.from({ length: 101 }, (_, i) => guard.note(1000 + i));
    expect(verdicts.slice(0, 100).some((v) => v.tooMany)).toBe(false);
    expect(verdicts[100].tooMany).toBe(true);
    expect(verdicts.filter((v) => v.log).length).toBe(2); // the first, and the one that trips
    expect(verdicts[100].suppressed).toBe(99);
    const spread = new GarbageGuard();
    expect(Array.from({ length: 1000 }, (_, i) => spread.note(i * 200)).some((v) => v.tooMany)).toBe(false);
  });
});

describe('StdioTransport reading lines', () => {
  it('decodes a character split across chunks, and discards a line over the limit as it arrives', async () => {
    const script = `
      const w = (b) => new Promise((r) => process.stdout.write(b, () => setTimeout(r, 30)));
      const euro = Buffer.from('€');
      await w(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"a","params":{"t":"'), euro.subarray(0, 1)]));
      await w(Buffer.concat([euro.subarray(1), Buffer.from('"}}\\n')]));
      await w('{"jsonrpc":"2.0","method":"b","params":{"t":"' + 'x'.repeat(3000));
      await w('x'.repeat(3000) + '"}}\\n{"jsonrpc":"2.0","method":"c"}\\n');
      await w('{"jsonrpc":"2.0","id":42,"result":{"t":"' + 'y'.repeat(5000) + '"}}\\n');
      process.stdin.on('end', () => process.exit(0)); process.stdin.resume();`;
    const transport = new StdioTransport({ command: process.execPath, args: ['--input-type=module', '-e', script], env: { PATH: process.env.PATH ?? '' }, cwd: ROOT, maxLineBytes: 1000 });
    const messages: unknown[] = [];
    const errors: Error[] = [];
    transport.onmessage = (m) => void messages.push(m);
    transport.onerror = (e) => void errors.push(e);
    await transport.start();
    await waitFor(() => messages.length === 2, 5000, 'two messages');
    await waitFor(() => errors.length === 2, 5000, 'two over-long lines');
    await transport.close();
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'a', params: { t: '€' } }, { jsonrpc: '2.0', method: 'c' }]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(MalformedMessageError);
    expect(errors[0].message).toMatch(/longer than 1000 bytes/);
    expect((errors[0] as MalformedMessageError).id).toBeUndefined();
    // Whose answer the discarded line was, so that the call can fail at once.
    expect((errors[1] as MalformedMessageError).id).toBe(42);
  });
});
