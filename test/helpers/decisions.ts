import { isDeepStrictEqual } from 'node:util';
import type { DecisionEvent } from '../../src/policy/decision.js';

/** What tells one request's decision from the others: its method, its target, and (when given) its arguments. */
export interface RequestKey {
  /** Default: tools/call. */
  method?: DecisionEvent['method'];
  target: string;
  arguments?: unknown;
}

/**
 * The decisions one request made, among those recorded since index `since` (taken before it was sent). Found by
 * the request, never by position: other records — a definition's first sight — may arrive while it runs.
 */
export function decisionsFor(decisions: readonly DecisionEvent[], since: number, request: RequestKey): DecisionEvent[] {
  return decisions
    .slice(since)
    .filter((d) => d.method === (request.method ?? 'tools/call') && d.target === request.target && (request.arguments === undefined || isDeepStrictEqual(d.arguments, request.arguments)));
}
