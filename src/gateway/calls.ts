import type { RequestId } from '../protocol/jsonrpc.js';
import type { ParkedCall } from './input-required.js';
import type { ClientSession } from './session.js';

/** One tools/call (or other forwarded request) in flight: who asked, so upstream traffic can find them. */
export interface CallRecord {
  session: ClientSession;
  requestId: RequestId | undefined;
  /** Set for a stateless client's call: questions from the upstream go out as `input_required`. */
  parked?: ParkedCall;
}
