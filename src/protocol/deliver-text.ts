import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { MalformedMessageError } from './upstream-message.js';

/** The two callbacks of a client transport that one incoming text feeds. */
interface Receiver {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
}

/**
 * Parses one line or frame a server sent and hands it on. Only JSON objects go on — the reader checks the rest
 * (our peer at the edge, upstream-message.ts; the SDK Client with its schemas) — and a reader that throws costs
 * this one message, not the rest of the stream or the process. `what` names the unit in errors ("line", "frame").
 */
export function deliverText(text: string, what: string, to: Receiver): void {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    to.onerror?.(new MalformedMessageError(`server wrote a ${what} that is not JSON: ${JSON.stringify(text.slice(0, 100))}`));
    return;
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    to.onerror?.(new MalformedMessageError(`server wrote a ${what} of JSON that is not a JSON-RPC message: ${JSON.stringify(text.slice(0, 100))}`));
    return;
  }
  try {
    to.onmessage?.(message as JSONRPCMessage);
  } catch (err) {
    to.onerror?.(err instanceof Error ? err : new Error(String(err)));
  }
}
