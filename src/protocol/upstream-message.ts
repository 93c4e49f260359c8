import { MAX_NAME_BYTES } from './envelope.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from './jsonrpc.js';

/** Deepest nesting of arrays and objects we accept in a message from a server, the envelope itself being 1. */
export const MAX_MESSAGE_DEPTH = 64;
/** Largest message we accept from a server (its parsed size, near enough its UTF-8 length for ASCII). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export type UpstreamMessage =
  | { ok: true; kind: 'request'; message: JsonRpcRequest }
  | { ok: true; kind: 'notification'; message: JsonRpcNotification }
  | { ok: true; kind: 'response'; message: JsonRpcResponse };

/**
 * A message that failed. `id` is the id of what looks like a response (ours: the call waiting for it can be
 * told); `requestId` the id of what looks like a request from the server (theirs: it can be answered).
 */
export type UpstreamRejection = { ok: false; reason: string; id?: RequestId; requestId?: RequestId };

export type UpstreamCheck = UpstreamMessage | UpstreamRejection;

/**
 * Data from a server that is not a message at all: a line that is not JSON, JSON that is not an object, a line
 * too long to read. Transports report it through `onerror` with this class, so that the reader can count it
 * with the messages that failed `checkUpstreamMessage` — and fail the call it answered, when the transport
 * could tell whose answer it was (`id`).
 */
export class MalformedMessageError extends Error {
  constructor(
    message: string,
    readonly id?: number,
  ) {
    super(message);
    this.name = 'MalformedMessageError';
  }
}

/**
 * Checks one message from an upstream server before anything reads it: a server is untrusted input. The shape
 * of the envelope and the type of every field we act on; the nesting depth and size of the whole value,
 * walked iteratively so that no depth can overflow the stack. Cheap enough for every message: no schema
 * library, one pass that looks at no string's contents.
 */
export function checkUpstreamMessage(value: unknown): UpstreamCheck {
  if (!isObject(value)) return { ok: false, reason: `a message must be a JSON object, not ${kindOf(value)}` };
  const m = value as Record<string, unknown>;
  const hasMethod = Object.hasOwn(m, 'method');
  const id = Object.hasOwn(m, 'id') ? m.id : undefined;
  const idProblem = id === undefined ? undefined : checkId(id);
  const usable = id !== undefined && !idProblem ? (id as RequestId) : undefined;
  const fail = (reason: string): UpstreamRejection => (hasMethod ? { ok: false, reason, requestId: usable } : { ok: false, reason, id: usable });

  if (m.jsonrpc !== '2.0') return fail(`"jsonrpc" must be "2.0", not ${kindOf(m.jsonrpc)}`);
  // A server that could not read our message answers with id null: a well-formed error we cannot match.
  const nullErrorId = id === null && !hasMethod && Object.hasOwn(m, 'error');
  if (idProblem && !nullErrorId) return fail(idProblem);
  const oversized = measure(m);
  if (oversized) return fail(oversized);

  if (hasMethod) {
    const method = m.method;
    if (typeof method !== 'string' || method === '') return fail(`"method" must be a non-empty string, not ${kindOf(method)}`);
    if (Buffer.byteLength(method) > MAX_NAME_BYTES) return fail(`"method" is longer than ${MAX_NAME_BYTES} bytes`);
    if (Object.hasOwn(m, 'result') || Object.hasOwn(m, 'error')) return fail('a request or notification must not carry "result" or "error"');
    if (m.params !== undefined && !isObject(m.params)) return fail(`"params" must be an object, not ${kindOf(m.params)}`);
    return usable === undefined
      ? { ok: true, kind: 'notification', message: m as unknown as JsonRpcNotification }
      : { ok: true, kind: 'request', message: m as unknown as JsonRpcRequest };
  }
  const hasResult = Object.hasOwn(m, 'result');
  const hasError = Object.hasOwn(m, 'error');
  if (hasResult && hasError) return fail('a response must not carry both "result" and "error"');
  if (!hasResult && !hasError) return fail('not a request, notification or response: no "method", "result" or "error"');
  if (id === undefined) return fail('a response must carry an "id"');
  if (hasResult && !isObject(m.result)) return fail(`"result" must be an object, not ${kindOf(m.result)}`);
  if (hasError) {
    const error = m.error;
    if (!isObject(error)) return fail(`"error" must be an object, not ${kindOf(error)}`);
    const { code, message } = error as Record<string, unknown>;
    if (!Number.isSafeInteger(code)) return fail(`"error.code" must be an integer, not ${kindOf(code)}`);
    if (typeof message !== 'string') return fail(`"error.message" must be a string, not ${kindOf(message)}`);
  }
  return { ok: true, kind: 'response', message: m as unknown as JsonRpcResponse };
}

function checkId(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isFinite(id) ? undefined : '"id" must be a finite number';
  if (typeof id === 'string') return Buffer.byteLength(id) > MAX_NAME_BYTES ? `"id" is longer than ${MAX_NAME_BYTES} bytes` : undefined;
  return `"id" must be a string or a number, not ${kindOf(id)}`;
}

/**
 * Nesting depth and size of a parsed value, with an explicit stack: a 100,000-deep value costs 65 steps here,
 * and a recursive walk anywhere after this one only ever sees values at most MAX_MESSAGE_DEPTH deep.
 */
function measure(root: object): string | undefined {
  const values: object[] = [root];
  const depths: number[] = [1];
  let size = 0;
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_MESSAGE_DEPTH) return `nested deeper than ${MAX_MESSAGE_DEPTH} levels`;
    size += 2;
    if (Array.isArray(value)) {
      for (const item of value) size += weigh(item, depth + 1, values, depths);
    } else {
      for (const key in value) size += key.length + 4 + weigh((value as Record<string, unknown>)[key], depth + 1, values, depths);
    }
    if (size > MAX_MESSAGE_BYTES) return `larger than ${MAX_MESSAGE_BYTES} bytes`;
  }
  return undefined;
}

/** The size of a primitive; an array or object is queued for the walk instead. */
function weigh(item: unknown, depth: number, values: object[], depths: number[]): number {
  if (typeof item === 'string') return item.length + 2;
  if (item === null || typeof item !== 'object') return 8;
  values.push(item);
  depths.push(depth);
  return 1;
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a value is, for a reason: its type, never its contents (which may be huge or hostile). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length <= 20 && /^[\x20-\x7e]*$/.test(value) ? JSON.stringify(value) : 'a string';
  if (typeof value === 'number') return Number.isFinite(value) && String(value).length <= 20 ? String(value) : 'a number';
  return typeof value === 'object' ? 'an object' : typeof value;
}
