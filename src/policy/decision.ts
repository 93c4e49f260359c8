import type { Label } from '../ifc/label.js';

/** The steps of the chokepoint, in order; every decision names the one that made it. */
export type Step =
  | 'authenticate'
  | 'visibility'
  | 'pause'
  | 'rate-limit'
  | 'tool-rule'
  | 'operation'
  | 'paths'
  | 'information-flow'
  | 'pre-hook'
  | 'execute'
  | 'content-filter'
  | 'post-hook';

/** A step's verdict when it does not simply let the call continue. */
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
  method: 'tools/call' | 'resources/read' | 'prompts/get' | 'operator' | 'approval';
  target: string;
  upstream?: string;
  outcome: 'allow' | 'deny' | 'approve' | 'error' | 'requested' | 'granted' | 'denied' | 'expired';
  step?: Step;
  rule?: string;
  reason?: string;
  arguments?: unknown;
  /** What went back to the client (after filters), for allowed calls. */
  result?: unknown;
  /** The result was scanned with every filter on and nothing was found: the audit need not scan it again. */
  resultClean?: boolean;
  findings?: string[];
  labelBefore?: Label;
  labelAfter?: Label;
  durationMs: number;
  /** Ties the records of one request together (the client's W3C traceparent when it sent one). */
  traceId?: string;
}
