import { formatLabel } from '../ifc/label.js';
import type { DecisionEvent } from '../policy/decision.js';
import type { UnsealedRecord } from './chain.js';
import { summarise } from './summary.js';

const KINDS = new Map<string, UnsealedRecord['kind']>([
  ['operator', 'operator'],
  ['approval', 'approval'],
  ['definition', 'definition'],
]);

/** The audit record for one decision: every field, with arguments and result redacted and capped. */
export function recordOf(event: DecisionEvent, maxFieldBytes: number): UnsealedRecord {
  // Arguments are outgoing: an image's data there may be a secret the client put in (scan.ts, PayloadOptions).
  const args = summarise(event.arguments, maxFieldBytes, event.argumentsClean, 'scan');
  const result = summarise(event.result, maxFieldBytes, event.resultClean);
  // Keys in sorted order: the canonical body of a record built this way is one JSON.stringify (canonical.ts).
  return {
    agent: event.agent,
    arguments: args?.text,
    argumentsHash: args?.hash,
    client: event.client,
    durationMs: Math.round(event.durationMs * 1000) / 1000,
    findings: event.findings?.length ? event.findings : undefined,
    hashAfter: event.hashAfter,
    hashBefore: event.hashBefore,
    kind: KINDS.get(event.method) ?? 'decision',
    labelAfter: event.labelAfter && formatLabel(event.labelAfter),
    labelBefore: event.labelBefore && formatLabel(event.labelBefore),
    method: event.method,
    outcome: event.outcome,
    reason: event.reason,
    result: result?.text,
    resultHash: result?.hash,
    rule: event.rule,
    session: event.session,
    step: event.step,
    target: event.target,
    time: event.time,
    traceId: event.traceId,
    transport: event.transport,
    upstream: event.upstream,
  };
}
