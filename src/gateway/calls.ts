import type { Destination } from '../policy/checked-request.js';
import type { Params, RequestId } from '../protocol/jsonrpc.js';
import type { ClientSession } from './session.js';

/** Where questions an upstream asks during a stateless client's call go: back to the client as `input_required`. */
export interface QuestionsToClient {
  ask(method: string, params: Params | undefined): Promise<Params>;
}

/** One tools/call (or other forwarded request) in flight: who asked, so upstream traffic can find them. */
export interface CallRecord {
  session: ClientSession;
  requestId: RequestId | undefined;
  /** Set for a stateless client's call: questions from the upstream go out as `input_required`. */
  parked?: QuestionsToClient;
  /**
   * The client's own progress token, when it asked for progress. Progress follows the record: after an
   * `input_required` round trip the record names the retry, so progress reaches the exchange that is open.
   */
  progressToken?: string | number;
  /** Where the call's data goes, as the pipeline judged it: the client's answers to the upstream's questions go there too. */
  destination?: Destination;
  /**
   * Content from the upstream about this call (progress, log lines) still being checked on its way to the
   * client: the call's result waits for it, so nothing the upstream sent first arrives after the result.
   */
  delivering?: Promise<void>;
}
