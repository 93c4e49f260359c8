import { displayName } from '../identity/principal.js';
import type { Recorder } from '../policy/decision.js';
import type { ApprovalRequest, Approver } from '../policy/security.js';
import type { ApprovalQueue, Verdict } from './queue.js';

export interface ApproverOptions {
  /** Let the calling client's own user decide through elicitation, when the client supports it. */
  askClient: boolean;
  /** How often a waiting client is told it is still waiting (progress notifications). */
  keepAliveMs?: number;
}

/**
 * Connects the chokepoint's `approve` outcome to humans: a standing grant answers at once; otherwise the
 * request waits in the queue for the console or the CLI (operator token) — or, where allowed, the client's
 * own user — while the client is kept alive with progress notifications. Every step is recorded.
 */
export function createApprover(queue: ApprovalQueue, recorder: Recorder, options: ApproverOptions): Approver {
  return async (request: ApprovalRequest) => {
    const record = (outcome: 'requested' | 'granted' | 'denied' | 'expired', reason: string, by?: string) =>
      recorder.record({
        time: new Date().toISOString(),
        agent: request.principal.agent,
        session: request.sessionId,
        transport: request.transport ?? '-',
        method: 'approval',
        target: request.tool,
        outcome,
        step: request.refusal.step,
        rule: request.refusal.rule,
        reason: by ? `${reason} (by ${by})` : reason,
        arguments: request.arguments,
        labelBefore: request.label,
        durationMs: 0,
      });

    if (await queue.covered(request)) {
      await record('granted', 'covered by an earlier grant', 'grant');
      return { granted: true };
    }
    const { pending, verdict } = await queue.ask(request);
    await record('requested', request.refusal.reason);

    let beat = 0;
    const keepAlive = request.keepAlive
      ? setInterval(() => request.keepAlive!(`waiting for approval ${pending.id} (${++beat * Math.round((options.keepAliveMs ?? 10_000) / 1000)} s)`), options.keepAliveMs ?? 10_000)
      : undefined;
    if (options.askClient && request.askClient) {
      request
        // The client's user is shown the name they know; the record keeps the identity key.
        .askClient(`Allow ${displayName(request.principal)} to call ${request.tool}? ${request.refusal.reason}\nArguments:\n${pending.argumentsText}`)
        .then((answer) => {
          if (answer === undefined) return;
          return queue.decide(pending.id, { approve: answer, scope: 'once', by: `the user of ${request.principal.agent}'s client` });
        })
        .catch(() => undefined); // decided elsewhere first, or the client could not ask: the queue still decides
    }
    let result: Verdict;
    try {
      result = await verdict;
    } finally {
      if (keepAlive) clearInterval(keepAlive);
    }
    await record(result.outcome, result.reason ?? (result.granted ? 'approved' : 'denied'), result.by);
    return { granted: result.granted, reason: result.outcome === 'expired' ? `no decision in time (${result.reason})` : result.reason };
  };
}
