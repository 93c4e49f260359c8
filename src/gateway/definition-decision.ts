import type { DefinitionEvent } from '../definitions/guard.js';
import type { DecisionEvent } from '../policy/decision.js';

/** The decision a definition seen first, changed, approved or rejected is recorded as (one audit record each). */
export function definitionDecision(e: DefinitionEvent): DecisionEvent {
  return {
    time: new Date().toISOString(),
    agent: e.by ?? 'sluice',
    session: '-',
    transport: '-',
    method: 'definition',
    target: `${e.kind} ${e.name}`,
    upstream: e.server,
    outcome: e.outcome,
    reason: `${e.change}: ${e.reason}`,
    findings: e.findings,
    hashBefore: e.before,
    hashAfter: e.after,
    durationMs: 0,
  };
}
