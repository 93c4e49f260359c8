import { ErrorCode, RpcError, type JsonRpcErrorObject } from './jsonrpc.js';

/**
 * Two kinds of error. A wire error (`RpcError`) already carries a JSON-RPC code and goes to the client as is —
 * an upstream's own error answer, or a request we refuse as malformed. A local error (`SluiceError`) says what
 * went wrong inside sluice with a string code; it never goes on the wire as such: `toWire` is the one place
 * that turns it into a JSON-RPC error, so a code means one thing everywhere.
 */
export type LocalCode =
  /** The upstream that owns the target is not connected (down, crashed, never started). */
  | 'UPSTREAM_UNAVAILABLE'
  /** The upstream did not answer within its request timeout. */
  | 'UPSTREAM_TIMEOUT'
  /** The upstream answered with a message that is not valid JSON-RPC (see protocol/upstream-message.ts). */
  | 'UPSTREAM_PROTOCOL'
  /** The client cancelled the request or went away. */
  | 'CANCELLED'
  /** The client session ended while a request to it was open. */
  | 'SESSION_ENDED'
  /** A request from an upstream to "its client" that no client can answer right now. */
  | 'NO_CLIENT'
  /** A store behind a port (state, audit) could not answer: callers fail closed. */
  | 'STORE_UNAVAILABLE'
  /** A per-session server has no slot for this session (maxSessions, shared fairly between agents). */
  | 'SESSION_LIMIT';

export class SluiceError extends Error {
  constructor(
    readonly code: LocalCode,
    message: string,
    /** `cause`: the error underneath, for whoever classifies it (upstream/failure.ts); never sent on the wire. */
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SluiceError';
  }
}

/** Whether `err` is a local error with this code. */
export function isLocal(err: unknown, code: LocalCode): err is SluiceError {
  return err instanceof SluiceError && err.code === code;
}

/** The JSON-RPC code each local error becomes on the wire. One table, so no number means two things. */
const WIRE: Record<LocalCode, number> = {
  UPSTREAM_UNAVAILABLE: ErrorCode.UpstreamUnavailable,
  UPSTREAM_TIMEOUT: ErrorCode.UpstreamTimeout,
  UPSTREAM_PROTOCOL: ErrorCode.InternalError,
  CANCELLED: ErrorCode.RequestCancelled,
  SESSION_ENDED: ErrorCode.InternalError,
  NO_CLIENT: ErrorCode.InternalError,
  STORE_UNAVAILABLE: ErrorCode.InternalError,
  SESSION_LIMIT: ErrorCode.UpstreamUnavailable,
};

/** The error object for the wire: wire errors as they are, local ones by the table, anything else as internal. */
export function toWire(err: unknown): JsonRpcErrorObject {
  if (err instanceof RpcError) return err.toObject();
  if (err instanceof SluiceError) return { code: WIRE[err.code], message: err.message };
  return { code: ErrorCode.InternalError, message: `Internal error: ${err instanceof Error ? err.message : String(err)}` };
}
