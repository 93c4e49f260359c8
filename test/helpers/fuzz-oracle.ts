/**
 * The oracle of the front-door fuzz test (test/integration/fuzz.test.ts): what any correct JSON-RPC server must
 * answer to a frame of bytes, and what is wrong with a response. It reads the bytes actually sent, never the
 * generator's intent (test/helpers/fuzz-messages.ts), so a mutation that happens to produce something valid is
 * judged as valid.
 */
import { isObject, MAX_BATCH, MAX_BODY_BYTES, MAX_NAME_BYTES } from './fuzz-messages.js';

export type RequestId = string | number;

/** What a correct server answers to one frame: responses with these ids, `nulls` with id null, no others. */
export interface Expected {
  ids: RequestId[];
  nulls: number;
  /** Replies with id null that are tolerated (a notification whose params are not an object). */
  maybeNulls: number;
  /** The replies come as one array (an accepted batch). */
  batch: boolean;
}

const NONE: Expected = { ids: [], nulls: 0, maybeNulls: 0, batch: false };

/** What any correct JSON-RPC 2.0 server (with MCP's object-only params) answers to one message. */
function expectEntry(value: unknown): Expected {
  if (!isObject(value)) return { ...NONE, nulls: 1 };
  const hasId = Object.hasOwn(value, 'id');
  const id = value.id;
  const idValid = typeof id === 'string' ? Buffer.byteLength(id) <= MAX_NAME_BYTES : typeof id === 'number' && Number.isFinite(id);
  if (hasId && !idValid) return { ...NONE, nulls: 1 };
  const answer = (): Expected => (hasId ? { ...NONE, ids: [id as RequestId] } : { ...NONE, nulls: 1 });
  if (value.jsonrpc !== '2.0') return answer();
  if (Object.hasOwn(value, 'method')) {
    if (hasId) return answer();
    const m = value.method;
    if (typeof m !== 'string' || m === '' || Buffer.byteLength(m) > MAX_NAME_BYTES) return answer();
    return value.params === undefined || isObject(value.params) ? NONE : { ...NONE, maybeNulls: 1 };
  }
  if (hasId && (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error'))) {
    return Object.hasOwn(value, 'error') && !isObject(value.error) && !Array.isArray(value.error) ? answer() : NONE;
  }
  return answer();
}

export interface FrameContext {
  /** Batches are accepted here (a 2025-03-26 session). */
  batches: boolean;
  /** Blank lines are skipped, not answered (stdio). */
  blankIsNothing: boolean;
}

/** What a correct server answers to one frame of `bytes`, decoded as the server decodes it. */
export function expectFrame(bytes: Buffer, ctx: FrameContext): Expected {
  const text = bytes.toString('utf8');
  if (ctx.blankIsNothing && text.trim() === '') return NONE;
  if (bytes.length > MAX_BODY_BYTES) return { ...NONE, nulls: 1 };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ...NONE, nulls: 1 };
  }
  if (!Array.isArray(value)) return expectEntry(value);
  if (value.length === 0 || value.length > MAX_BATCH || !ctx.batches) return { ...NONE, nulls: 1 };
  const parts = value.map(expectEntry);
  const ids = parts.flatMap((p) => p.ids);
  const nulls = parts.reduce((n, p) => n + p.nulls, 0);
  const maybeNulls = parts.reduce((n, p) => n + p.maybeNulls, 0);
  return { ids, nulls, maybeNulls, batch: ids.length + nulls + maybeNulls > 0 };
}

/** What is wrong with `m` as a JSON-RPC response, or undefined: an id, and a result or an error with an integer code. */
export function responseProblem(m: unknown): string | undefined {
  if (!isObject(m)) return 'not an object';
  if (m.jsonrpc !== '2.0') return '"jsonrpc" is not "2.0"';
  if (!Object.hasOwn(m, 'id') || !(m.id === null || typeof m.id === 'string' || typeof m.id === 'number')) return 'no valid "id"';
  const hasResult = Object.hasOwn(m, 'result');
  const hasError = Object.hasOwn(m, 'error');
  if (hasResult === hasError) return 'must have exactly one of "result" and "error"';
  if (hasResult) return isObject(m.result) ? undefined : '"result" is not an object';
  const e = m.error;
  if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') return '"error" lacks an integer code or a string message';
  return undefined;
}

/** A short, printable form of what was sent, for failure reports: long runs collapsed, control characters escaped. */
export function show(bytes: Buffer | string): string {
  const s = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  const collapsed = s.replace(/(.)\1{40,}/gsu, (run, c: string) => `${c}…(×${[...run].length})`);
  const escaped = JSON.stringify(collapsed);
  return escaped.length > 600 ? `${escaped.slice(0, 600)}… (${Buffer.byteLength(s)} bytes)` : escaped;
}

/** A key under which an id is compared: the same id by value and type. */
export const idKey = (id: unknown): string => `${typeof id}:${typeof id === 'string' ? id : JSON.stringify(id)}`;
