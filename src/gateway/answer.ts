import { errorMessage, type JsonRpcMessage, type RequestId } from '../protocol/jsonrpc.js';

/**
 * What became of what a client sent. Streamable HTTP says it with a status (transports/http.ts); a connection
 * (stdio, WebSocket, legacy SSE) only sends the body, whatever the outcome.
 *
 * - `ok`: answered, or done;
 * - `accepted`: taken, with nothing to answer (notifications, responses);
 * - `refused`: turned away before the dispatcher saw it (malformed, not allowed in its revision, headers wrong);
 * - `not-found`: it names a session, or a method of the stateless revision, that does not exist;
 * - `conflict`: the session already has what was asked for (an open event stream).
 */
export type Outcome = 'ok' | 'accepted' | 'refused' | 'not-found' | 'conflict';

export interface Answer {
  readonly outcome: Outcome;
  /** What to send back, if anything. */
  readonly body?: JsonRpcMessage | JsonRpcMessage[];
  /** The session an initialize opened: the client names it in every later request (Mcp-Session-Id). */
  readonly sessionId?: string;
}

export const ACCEPTED: Answer = Object.freeze({ outcome: 'accepted' });
export const DONE: Answer = Object.freeze({ outcome: 'ok' });

/** `body` as an answer: `ok` when there is one, `accepted` when there is none. */
export function answered(body: JsonRpcMessage | JsonRpcMessage[] | undefined): Answer {
  return body === undefined ? ACCEPTED : { outcome: 'ok', body };
}

/** An answer that is one JSON-RPC error. */
export function failed(outcome: Outcome, id: RequestId | null, code: number, message: string, data?: unknown): Answer {
  return { outcome, body: errorMessage(id, data === undefined ? { code, message } : { code, message, data }) };
}
