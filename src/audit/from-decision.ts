import { formatLabel } from '../ifc/label.js';
import type { DecisionEvent } from '../policy/decision.js';
import type { UnsealedRecord } from './chain.js';
import { summarise } from './summary.js';

/** The audit record for one decision: every field, with arguments and result redacted and capped. */
export function recordOf(event: DecisionEvent, maxFieldBytes: number): UnsealedRecord {
  const args = summarise(event.arguments, maxFieldBytes);
  const result = summarise(event.result, maxFieldBytes, event.resultClean);
  return {
    time: event.time,
    kind: event.method === 'operator' ? 'operator' : event.method === 'approval' ? 'approval' : 'decision',
    agent: event.agent,
    session: event.session,
    transport: event.transport,
    method: event.method,
    target: event.target,
    upstream: event.upstream,
    outcome: event.outcome,
    step: event.step,
    rule: event.rule,
    reason: event.reason,
    client: event.client,
    arguments: args?.text,
    argumentsHash: args?.hash,
    result: result?.text,
    resultHash: result?.hash,
    findings: event.findings?.length ? event.findings : undefined,
    labelBefore: event.labelBefore && formatLabel(event.labelBefore),
    labelAfter: event.labelAfter && formatLabel(event.labelAfter),
    durationMs: Math.round(event.durationMs * 1000) / 1000,
    traceId: event.traceId,
  };
}
