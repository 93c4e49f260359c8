import type { Label } from '../ifc/label.js';
import type { CheckedMethod } from './methods.js';
import type { Step } from './step-names.js';

export type { Step } from './step-names.js';

/** A step's verdict when it does not simply let the request continue. */
export interface Refusal {
  outcome: 'deny' | 'approve';
  step: Step;
  /** The rule that decided, as written in config (a glob, a path pattern, a filter kind). */
  rule?: string;
  reason: string;
}

/** One structured event per decision: what the audit log will record. */
export interface DecisionEvent {
  time: string;
  agent: string;
  session: string;
  transport: string;
  /** A checked request's method; an upstream's request to a client, or a client's answer to one; or what sluice itself did. */
  method: CheckedMethod | 'sampling/createMessage' | 'elicitation/create' | 'roots/list' | 'operator' | 'approval' | 'authenticate' | 'definition';
  target: string;
  upstream?: string;
  outcome: 'allow' | 'deny' | 'approve' | 'error' | 'requested' | 'granted' | 'denied' | 'expired' | 'allowed' | 'quarantined' | 'approved' | 'rejected' | 'removed';
  step?: Step;
  rule?: string;
  reason?: string;
  /** Who knocked, for refused logins: their address and a fingerprint of the token they presented. */
  client?: string;
  arguments?: unknown;
  /** The arguments were scanned with every detector and held nothing: the audit need not scan them again. */
  argumentsClean?: boolean;
  /** What went back to the client (after filters), for allowed calls. */
  result?: unknown;
  /** The result was scanned with every filter on and nothing was found: the audit need not scan it again. */
  resultClean?: boolean;
  findings?: string[];
  /** For definitions: the pin before (last seen or last trusted) and after, so a change can be checked against the server. */
  hashBefore?: string;
  hashAfter?: string;
  labelBefore?: Label;
  labelAfter?: Label;
  durationMs: number;
  /** Ties the records of one request together (the client's W3C traceparent when it sent one). */
  traceId?: string;
}

/**
 * Where decisions go: the port between the policy and the audit log (the composition root wires them).
 * `record` resolves once the decision is durable; callers await it before a result goes out.
 */
export interface Recorder {
  /** Resolves once recorded, with the audit record's sequence number when there is an audit log. */
  record(event: DecisionEvent, options?: { droppable?: boolean }): Promise<number | undefined>;
  /** False while the audit log is too far behind to take new calls (they are refused before they run). */
  accepting(): boolean;
}
