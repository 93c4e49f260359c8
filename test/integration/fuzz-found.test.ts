import type { Client } from '@modelcontextprotocol/client';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeOver, openWebSocket } from '../helpers/fuzz-connection.js';
import { PER_MESSAGE_MS, sdkStillWorks, startFuzzGateway } from '../helpers/fuzz-gateway.js';
import { httpProblems, openSession, post } from '../helpers/fuzz-http.js';
import { envelope, MODERN } from '../helpers/fuzz-messages.js';
import { show } from '../helpers/fuzz-oracle.js';
import type { TestGateway } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';

let gw: TestGateway;
let sdk: Client;

beforeAll(async () => {
  ({ gw, sdk } = await startFuzzGateway());
});
afterAll(async () => {
  await sdk?.close();
  await gw?.stop();
});

/**
 * What the fuzz found, pinned as fixed examples so that they run whatever the seed: each must pass once the
 * bug is fixed (see the issue-10 report), and none is skipped meanwhile.
 */
describe('messages the fuzz found, kept as fixed examples', () => {
  const echo = { name: 'everything__echo', arguments: { message: 'token' } };
  const requests: [string, Record<string, unknown>][] = [
    ['tools/call', echo],
    ['resources/read', { uri: 'demo://resource/dynamic/text/1' }],
    ['prompts/get', { name: 'everything__simple-prompt' }],
    ['completion/complete', { ref: { type: 'ref/prompt', name: 'everything__completable-prompt' }, argument: { name: 'department', value: 'E' } }],
  ];

  // The default seed finds it on stdio (seed 20260730 #247: resources/read with a deeply nested array as the
  // token); SLUICE_FUZZ_SEED=1, 2 and 3 find it in tools/call, prompts/get and batches on every door. sluice
  // forwards `_meta.progressToken` of any type to the upstream, whose SDK drops a request whose token is not a
  // string or a number without answering it; the client's request then hangs for the upstream's request
  // timeout (300 s by default) and ends as "upstream did not answer".
  it('answers at once a request whose _meta.progressToken is not a string or a number (HTTP legacy and stateless)', async () => {
    const session = await openSession(gw.url, '2025-11-25');
    const sent: { what: string; body: string; headers: Record<string, string> }[] = [];
    for (const token of [null, true, { constructor: [1] }, [1]]) {
      for (const [method, params] of token === null ? requests : requests.slice(0, 1)) {
        const legacy = { ...params, _meta: { progressToken: token } };
        const modern = { ...params, _meta: { ...envelope(), progressToken: token } };
        sent.push({ what: `legacy ${method}`, body: JSON.stringify({ jsonrpc: '2.0', id: sent.length, method, params: legacy }), headers: { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version } });
        sent.push({ what: `stateless ${method}`, body: JSON.stringify({ jsonrpc: '2.0', id: sent.length, method, params: modern }), headers: {} });
      }
    }
    const outcomes = await Promise.all(
      sent.map(async ({ what, body, headers }) => {
        try {
          const answer = await post(gw.url, Buffer.from(body), headers);
          const problems = httpProblems(answer, { ids: [JSON.parse(body).id], nulls: 0, maybeNulls: 0, batch: false }, false);
          if (/did not answer/.test(answer.text)) problems.push(`the upstream never answered: ${show(answer.text)}`);
          return problems.map((p) => `${what}: ${p}\n    sent: ${show(body)}`);
        } catch (err) {
          return [`${what}: no answer within ${PER_MESSAGE_MS} ms (${(err as Error).message})\n    sent: ${show(body)}`];
        }
      }),
    );
    const failures = outcomes.flat();
    expect(failures, `${failures.length} of ${sent.length} requests:\n${failures.join('\n')}`).toEqual([]);
    await sdkStillWorks(sdk, 'after bad progress tokens');
  }, 20_000);

  it('answers at once a tools/call whose _meta.progressToken is null over a WebSocket', async () => {
    const wire = await openWebSocket(gw.wsUrl);
    try {
      await initializeOver(wire, '2025-11-25', PER_MESSAGE_MS);
      wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'null-token', method: 'tools/call', params: { ...echo, _meta: { progressToken: null } } })));
      const answered = await wire.inbox.until(() => wire.inbox.replies.some((r) => r.message.id === 'null-token'), PER_MESSAGE_MS);
      expect(answered, `no answer within ${PER_MESSAGE_MS} ms to a tools/call with "progressToken": null`).toBe(true);
    } finally {
      wire.ws.close();
    }
  }, 20_000);

  // Found while bounding subscriptions/listen for the fuzz: over a connection (WebSocket, stdio) a stateless
  // request runs in a throw-away session, so a plain notifications/cancelled (which goes to the connection's
  // session) cannot find it, and one that carries the envelope is dropped unread; the stream then stays open,
  // its listener registered, until the socket closes.
  it('ends a stateless subscriptions/listen on a WebSocket when the client cancels it', async () => {
    const wire = await openWebSocket(gw.wsUrl);
    const before = gw.gateway.fanOut.listeners.size;
    try {
      await initializeOver(wire, '2025-11-25', PER_MESSAGE_MS);
      wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: envelope() } })));
      await waitFor(() => gw.gateway.fanOut.listeners.size === before + 1, PER_MESSAGE_MS, 'the listener');
      // Both ways a client may cancel: as on a session, and with the stateless envelope.
      wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1', reason: 'done' } })));
      wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1', reason: 'done', _meta: envelope() } })));
      const ended = await wire.inbox.until(() => wire.inbox.replies.some((r) => r.message.id === 'listen-1'), PER_MESSAGE_MS);
      expect(ended, 'the listen stream did not end after notifications/cancelled').toBe(true);
      expect(gw.gateway.fanOut.listeners.size).toBe(before);
    } finally {
      wire.ws.close();
    }
  }, 20_000);

  // The same throw-away session is not closed with the connection either: the listener outlives the socket.
  it('drops a stateless subscriptions/listen when its WebSocket closes', async () => {
    const wire = await openWebSocket(gw.wsUrl);
    const before = gw.gateway.fanOut.listeners.size;
    await initializeOver(wire, '2025-11-25', PER_MESSAGE_MS);
    wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'listen-2', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: envelope() } })));
    await waitFor(() => gw.gateway.fanOut.listeners.size === before + 1, PER_MESSAGE_MS, 'the listener');
    wire.ws.close();
    await once(wire.ws, 'close');
    await waitFor(() => gw.gateway.fanOut.listeners.size === before, PER_MESSAGE_MS, 'the listener to go with its socket');
  }, 20_000);

  it('drops a stateless subscriptions/listen on HTTP when the client hangs up, and keeps serving', async () => {
    const before = gw.gateway.fanOut.listeners.size;
    const hangUp = new AbortController();
    const res = await fetch(gw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'listen-http', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: envelope() } }),
      signal: hangUp.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const first = await res.body!.getReader().read();
    expect(new TextDecoder().decode(first.value)).toContain('notifications/subscriptions/acknowledged');
    await waitFor(() => gw.gateway.fanOut.listeners.size === before + 1, PER_MESSAGE_MS, 'the listener');
    hangUp.abort();
    await waitFor(() => gw.gateway.fanOut.listeners.size === before, PER_MESSAGE_MS, 'the listener to go');
    await sdkStillWorks(sdk, 'after an abandoned listen');
  }, 20_000);
});
