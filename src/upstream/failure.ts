import { SdkHttpError, SseError, UnauthorizedError } from '@modelcontextprotocol/client';
import { RpcError } from '../protocol/jsonrpc.js';
import { isLocal } from '../protocol/errors.js';

/**
 * Why an upstream is not ready, as a word from this list and nothing else. Unauthenticated `/readyz` and the
 * clients see only this; the error text itself (a stdio server's last stderr line, a URL with its password, an
 * HTTP body) may carry credentials, and only operators see it, redacted (gateway/operator.ts).
 */
export type FailureKind = 'exited' | 'failed to start' | 'refused' | 'unreachable' | 'timeout' | 'protocol error' | 'auth failed' | 'http error' | 'connection lost' | 'failed';

/** Node's and undici's network error codes, by what they mean for an upstream. */
const BY_CODE = new Map<string, FailureKind>([
  ['ENOENT', 'failed to start'],
  ['EACCES', 'failed to start'],
  ['EPERM', 'failed to start'],
  ['ECONNREFUSED', 'refused'],
  ['ENOTFOUND', 'unreachable'],
  ['EAI_AGAIN', 'unreachable'],
  ['EHOSTUNREACH', 'unreachable'],
  ['ENETUNREACH', 'unreachable'],
  ['ETIMEDOUT', 'timeout'],
  ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
  ['ECONNRESET', 'connection lost'],
  ['EPIPE', 'connection lost'],
  ['UND_ERR_SOCKET', 'connection lost'],
]);

/** What failed connecting to (or talking with) an upstream, from the error and its `cause` chain. */
export function failureKind(err: unknown): FailureKind {
  if (isLocal(err, 'UPSTREAM_TIMEOUT')) return 'timeout';
  if (isLocal(err, 'UPSTREAM_PROTOCOL') || err instanceof RpcError) return 'protocol error';
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof UnauthorizedError) return 'auth failed';
    const status = httpStatus(e);
    if (status !== undefined) return status === 401 || status === 403 ? 'auth failed' : 'http error';
    const code = (e as { code?: unknown }).code;
    const kind = typeof code === 'string' ? BY_CODE.get(code) : undefined;
    if (kind) return kind;
  }
  return 'failed';
}

/** The HTTP status an SDK or WebSocket error reports, where it reports one. */
function httpStatus(e: Error): number | undefined {
  if (e instanceof SdkHttpError) return e.status;
  if (e instanceof SseError && typeof e.code === 'number') return e.code;
  // The SDK's SSE transport and the ws library say it only in words.
  const m = /\(HTTP (\d{3})\)|^Unexpected server response: (\d{3})$/.exec(e.message);
  return m ? Number(m[1] ?? m[2]) : undefined;
}
