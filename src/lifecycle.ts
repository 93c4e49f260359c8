import { channel, type Channel } from 'node:diagnostics_channel';

/**
 * The gateway's lifecycle events, published at one edge each on `node:diagnostics_channel`: a client request
 * answered (dispatch), an upstream request answered, a decision recorded, an audit batch committed. Metrics,
 * traces and the console's charts subscribe; the core never imports them. Publishing costs a property check
 * when nobody listens: callers ask `active` before they measure anything.
 */
/**
 * What a tracer keeps with one request or upstream call: the W3C context the client sent, and — once a
 * tracer listens — its span (opaque to the core) and trace id. The same object travels from start to end.
 */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
  /** Set by a tracer: its span for this request or call. */
  span?: unknown;
  /** Set by a tracer: the trace this request belongs to (what the audit record names). */
  traceId?: string;
  /** Set by the chokepoint: the sequence number of the request's audit record (what the span names). */
  auditSeq?: number;
}

/** One chokepoint step done (or an approval waited for): what it found and what was done about it. */
export interface StepEvent {
  step: string;
  /** pass: nothing against the call; deny; approve: it needs a human. */
  verdict: 'pass' | 'deny' | 'approve';
  /** What happened to the call: it went on, it was stopped, or a human was asked. */
  action: 'allow' | 'block' | 'ask';
  /** performance.now() at the start, and how long the step took. */
  startMs: number;
  durationMs: number;
  trace: TraceCarrier;
}

export interface RequestStartEvent {
  method: string;
  target?: string;
  transport: string;
  stateless: boolean;
  /** A legacy session's id (never set for stateless requests). */
  sessionId?: string;
  trace: TraceCarrier;
}

/** An upstream request about to go out: a tracer starts its span and writes its context into `meta`. */
export interface UpstreamStartEvent {
  server: string;
  method: string;
  target?: string;
  /** The client request this call serves. */
  parent: TraceCarrier;
  /** The outgoing request's `_meta`, which the tracer may add `traceparent`/`tracestate` to. */
  meta: Record<string, unknown>;
  trace: TraceCarrier;
}

export interface RequestEvent {
  method: string;
  /** The tool, resource or prompt name, when the method has one. */
  target?: string;
  transport: string;
  /** A stateless (2026-07-28) request rather than one in a legacy session. */
  stateless: boolean;
  durationS: number;
  /** Unset on success; `tool_error` for an `isError` result; else the JSON-RPC error code as text. */
  errorType?: string;
  trace?: TraceCarrier;
}

export interface UpstreamRequestEvent {
  server: string;
  method: string;
  durationS: number;
  errorType?: string;
  trace?: TraceCarrier;
}

/** A message the method table does not carry (policy/methods.ts): dropped, and counted by who sent it. */
export interface DroppedEvent {
  from: 'client' | 'upstream';
  /** The method when the table names it, else `unknown` (a method name is whatever the sender made up). */
  method: string;
  server?: string;
}

/**
 * A decision recorded (audit/recorder.ts), with the gateway that made it: a channel is process-wide, and a
 * process may run several gateways. `decision` is the policy's `DecisionEvent` (policy/decision.ts), which this
 * module sits below and cannot name: `Gateway.onDecision` hands it on typed, filtered to one gateway.
 */
export interface DecisionRecordedEvent {
  /** The recording gateway's `id`. */
  gateway: string;
  decision: unknown;
}

export interface AuditCommitEvent {
  records: number;
  durationS: number;
  ok: boolean;
}

export interface LifecycleChannel<T> {
  /** Somebody listens: only then is an event worth making. */
  readonly active: boolean;
  publish(event: T): void;
  subscribe(listener: (event: T) => void): () => void;
}

function typed<T>(name: string): LifecycleChannel<T> {
  const ch: Channel = channel(name);
  return {
    get active() {
      return ch.hasSubscribers;
    },
    publish: (event) => ch.publish(event),
    subscribe: (listener) => {
      const onMessage = (message: unknown) => listener(message as T);
      ch.subscribe(onMessage);
      return () => void ch.unsubscribe(onMessage);
    },
  };
}

export const lifecycle = {
  requestStart: typed<RequestStartEvent>('sluice:request-start'),
  request: typed<RequestEvent>('sluice:request'),
  upstreamStart: typed<UpstreamStartEvent>('sluice:upstream-start'),
  step: typed<StepEvent>('sluice:step'),
  upstreamRequest: typed<UpstreamRequestEvent>('sluice:upstream-request'),
  decision: typed<DecisionRecordedEvent>('sluice:decision'),
  auditCommit: typed<AuditCommitEvent>('sluice:audit-commit'),
  dropped: typed<DroppedEvent>('sluice:dropped'),
};

/** The `error.type` of a failure: a JSON-RPC error's code, or the error's name. */
export function errorTypeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return String(code);
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.name : 'error';
}
