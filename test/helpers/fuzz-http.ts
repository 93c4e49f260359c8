/**
 * The HTTP door of the front-door fuzz tests (test/integration/fuzz*.test.ts): a legacy session per batch-capable
 * revision, the stateless revision, and requests with no session; and what is wrong with an HTTP answer.
 */
import { expect } from 'vitest';
import { postRaw } from './clients.js';
import { count, PER_MESSAGE_MS, type Door } from './fuzz-gateway.js';
import { isObject, materialize, MODERN } from './fuzz-messages.js';
import { expectFrame, idKey, responseProblem, show, type Expected, type FrameContext } from './fuzz-oracle.js';

export interface HttpAnswer {
  status: number;
  type: string;
  text: string;
}

export async function post(url: string, body: Buffer, headers: Record<string, string>): Promise<HttpAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(PER_MESSAGE_MS),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The JSON-RPC messages in an HTTP answer: a JSON body (one message or an array) or an SSE stream. */
function httpMessages(a: HttpAnswer): { messages: unknown[]; array: boolean } {
  if (a.text === '') return { messages: [], array: false };
  if (/text\/event-stream/i.test(a.type)) {
    const data = a.text.split('\n').filter((l) => l.startsWith('data:'));
    return { messages: data.map((l) => JSON.parse(l.slice(5))), array: false };
  }
  const value: unknown = JSON.parse(a.text);
  return Array.isArray(value) ? { messages: value, array: true } : { messages: [value], array: false };
}

/** What is wrong with an HTTP answer to a message whose correct answers are `expected`. */
export function httpProblems(a: HttpAnswer, expected: Expected, refusalOk: boolean): string[] {
  if (a.status >= 500) return [`HTTP ${a.status}: ${show(a.text)}`];
  let parsed: { messages: unknown[]; array: boolean };
  try {
    parsed = httpMessages(a);
  } catch {
    return [`HTTP ${a.status} with a body that is not JSON-RPC: ${show(a.text)}`];
  }
  const problems: string[] = [];
  const responses = parsed.messages.filter((m) => !(isObject(m) && Object.hasOwn(m, 'method')));
  for (const r of responses) {
    const p = responseProblem(r);
    if (p) problems.push(`HTTP ${a.status}, not a JSON-RPC response (${p}): ${show(JSON.stringify(r))}`);
  }
  if (problems.length > 0) return problems;
  count(responses);
  const ids = responses.map((r) => (r as { id: unknown }).id);
  // A request refused before it reached a session (none named, or none matched) is answered for the exchange.
  const refusal = a.status >= 400 && responses.length === 1 && ids[0] === null && 'error' in (responses[0] as object);
  const wanted = expected.ids.length + expected.nulls;
  if (wanted === 0) {
    if (a.status === 202 && a.text === '') return [];
    if (refusal) return [];
    return [`HTTP ${a.status} answered a message that must get no response: ${show(a.text)}`];
  }
  if (responses.length === 0) return [`HTTP ${a.status} with no JSON-RPC response (wanted ids ${JSON.stringify(expected.ids)}, ${expected.nulls} null): ${show(a.text)}`];
  if (refusal && (refusalOk || expected.nulls > 0)) return [];
  const want = expected.ids.map(idKey).sort();
  const got = ids.filter((id) => id !== null).map(idKey).sort();
  const nulls = ids.filter((id) => id === null).length;
  if (JSON.stringify(want) !== JSON.stringify(got) || nulls < expected.nulls || nulls > expected.nulls + expected.maybeNulls) {
    problems.push(`HTTP ${a.status}: wanted ids ${JSON.stringify(want)} and ${expected.nulls} null, got ${JSON.stringify(got)} and ${nulls} null: ${show(a.text)}`);
  }
  if (expected.batch && a.status === 200 && !parsed.array && !/event-stream/.test(a.type)) problems.push(`HTTP answer to a batch is not an array: ${show(a.text)}`);
  return problems;
}

export interface RawSession {
  id: string;
  version: string;
}

export async function openSession(url: string, version: string): Promise<RawSession> {
  const init = await postRaw(url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }));
  const id = init.headers.get('mcp-session-id');
  if (!id) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  await postRaw(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-session-id': id, 'mcp-protocol-version': version });
  return { id, version };
}

export async function httpDoor(url: string): Promise<Door> {
  const current = await openSession(url, '2025-11-25');
  const batching = await openSession(url, '2025-03-26');
  const sessionHeaders = (s: RawSession) => ({ 'mcp-session-id': s.id, 'mcp-protocol-version': s.version });
  let n = 1_000_000;
  return {
    async send({ draft, route }) {
      let headers: Record<string, string> = {};
      let batches = false;
      if (draft.kind === 'message' && draft.era === 'modern') {
        // Stateless: no session; sometimes the headers the revision defines, agreeing with the body.
        if (route < 50) headers['mcp-protocol-version'] = MODERN;
        const method = draft.body.method;
        if (route < 25 && typeof method === 'string' && /^[\x20-\x7e]+$/.test(method)) headers['mcp-method'] = method;
      } else if (route >= 8) {
        const session = route < (draft.kind === 'message' ? 20 : 60) ? batching : current;
        headers = sessionHeaders(session);
        batches = session === batching;
      }
      const body = materialize(draft, () => n++);
      const ctx: FrameContext = { batches, blankIsNothing: false };
      const expected = expectFrame(body, ctx);
      let answer: HttpAnswer;
      try {
        answer = await post(url, body, headers);
      } catch (err) {
        return [`no HTTP answer within ${PER_MESSAGE_MS} ms (${(err as Error).message}) to ${show(body)} with headers ${JSON.stringify(headers)}`];
      }
      return httpProblems(answer, expected, !('mcp-session-id' in headers)).map((p) => `${p}\n    sent: ${show(body)}\n    headers: ${JSON.stringify(headers)}`);
    },
    async alive(label) {
      expect((await fetch(url.replace(/\/mcp$/, '/healthz'))).status, `healthz at ${label}`).toBe(200);
      for (const s of [current, batching]) {
        const res = await post(url, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'alive', method: 'tools/call', params: { name: 'everything__echo', arguments: { message: label } } })), sessionHeaders(s));
        expect(res.status, `session ${s.version} at ${label}: ${res.text}`).toBe(200);
        expect(JSON.parse(res.text).result.content[0].text).toBe(`Echo: ${label}`);
      }
    },
  };
}
