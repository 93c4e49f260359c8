import { ErrorCode, errorMessage, type JsonRpcError, type JsonRpcMessage, type RequestId } from './jsonrpc.js';

/** Longest method name and string id we accept, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 256;

export type EnvelopeCheck = { ok: true; message: JsonRpcMessage } | { ok: false; error: JsonRpcError };

/**
 * Checks one JSON-RPC envelope before any handler sees it. Cheap by design (no schema library): this runs on
 * every message of every transport.
 */
export function checkEnvelope(value: unknown): EnvelopeCheck {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return invalid(null, 'a JSON-RPC message must be an object');
  }
  const m = value as Record<string, unknown>;
  const id = m.id;
  const idOk = id === undefined || typeof id === 'number' || typeof id === 'string';
  const safeId: RequestId | null = idOk && id !== undefined ? (id) : null;
  if (m.jsonrpc !== '2.0') return invalid(safeId, '"jsonrpc" must be "2.0"');
  if (!idOk) return invalid(null, '"id" must be a string or a number');
  if (typeof id === 'number' && !Number.isFinite(id)) return invalid(null, '"id" must be a finite number');
  if (typeof id === 'string' && Buffer.byteLength(id) > MAX_NAME_BYTES) return invalid(null, `"id" is longer than ${MAX_NAME_BYTES} bytes`);
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method === '') return invalid(safeId, '"method" must be a non-empty string');
    if (Buffer.byteLength(m.method) > MAX_NAME_BYTES) return invalid(safeId, `"method" is longer than ${MAX_NAME_BYTES} bytes`);
    if (m.params !== undefined && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) {
      return { ok: false, error: errorMessage(safeId, { code: ErrorCode.InvalidParams, message: '"params" must be an object' }) };
    }
    return { ok: true, message: m as unknown as JsonRpcMessage };
  }
  if (id !== undefined && ('result' in m || 'error' in m)) {
    if ('error' in m && (m.error === null || typeof m.error !== 'object')) return invalid(safeId, '"error" must be an object');
    return { ok: true, message: m as unknown as JsonRpcMessage };
  }
  return invalid(safeId, 'not a request, notification or response: "method" is missing');
}

function invalid(id: RequestId | null, message: string): EnvelopeCheck {
  return { ok: false, error: errorMessage(id, { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${message}` }) };
}

/** Parses a body, answering malformed JSON with the standard -32700 error. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: JsonRpcError } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: errorMessage(null, { code: ErrorCode.ParseError, message: `Parse error: ${(err as Error).message}` }) };
  }
}
