import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { canonicalJson } from '../canonical-json.js';
import { sha256 } from '../audit/chain.js';
import { formatLabel } from '../ifc/label.js';
import type { ApprovalRequest } from '../policy/security.js';
import type { ApprovalStore, ApprovalVerdict, PendingApproval } from '../state/ports.js';
import { requiredKeys, reviewText } from './review-text.js';

export type Scope = 'once' | 'session' | 'always';
/** A waiting call as the operator sees it: its arguments also as the text to review (see review-text.ts). */
export type Pending = Omit<PendingApproval, 'definitionHash' | 'argumentsHash'> & { argumentsText: string };
export type Verdict = ApprovalVerdict;

export interface Decision {
  approve: boolean;
  scope?: Scope;
  pinArguments?: boolean;
  /** How long a session/always grant lasts; unset: a session grant until the session ends, an always grant for good. */
  expiresInSeconds?: number;
  /** A session/always grant also ends when this gateway process stops (the console's "until restart"). */
  untilRestart?: boolean;
  by: string;
  reason?: string;
}

export const hashOf = (value: unknown) => sha256(canonicalJson(value ?? null));

const shown = ({ definitionHash: _d, argumentsHash: _a, ...p }: PendingApproval): Pending => ({ ...p, argumentsText: reviewText(p.arguments, p.required ?? []) });

/**
 * Calls waiting for a human decision, and the grants earlier decisions left, over the approval store (so
 * they survive a restart and, with a shared store, any instance can decide). Request ids are 128 random bits;
 * each is decided once (the first decision wins, a second is told so); an unanswered request is denied when
 * it expires.
 */
export class ApprovalQueue extends EventEmitter<{ changed: [] }> {
  /** This process's own id: an "until restart" grant carries it, and a restarted process has another. */
  private readonly processId = randomBytes(16).toString('hex');

  constructor(
    private readonly store: ApprovalStore,
    private readonly timeoutMs = 120_000,
  ) {
    super();
    // The store tells of every request added or settled, by this instance or (shared) any other: the console
    // of one replica shows what waits on all of them.
    store.watch(() => this.emit('changed'));
  }

  async list(): Promise<Pending[]> {
    return (await this.store.list()).map(shown);
  }

  /** A grant already covers this call (same agent, tool definition, session or arguments where pinned). */
  async covered(request: ApprovalRequest): Promise<boolean> {
    const definitionHash = hashOf(request.definition);
    const argumentsHash = hashOf(request.arguments);
    return (await this.store.grants(request.principal.agent, request.tool)).some(
      (g) =>
        g.definitionHash === definitionHash &&
        (g.process === undefined || g.process === this.processId) &&
        (g.scope === 'always' || g.session === request.sessionId) &&
        (g.argumentsHash === undefined || g.argumentsHash === argumentsHash),
    );
  }

  /** Waits for a human; resolves with their verdict, or a denial when the request expires. */
  async ask(request: ApprovalRequest, timeoutMs = this.timeoutMs): Promise<{ pending: Pending; verdict: Promise<Verdict> }> {
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    const pending: PendingApproval = {
      id,
      agent: request.principal.agent,
      session: request.sessionId,
      tool: request.tool,
      arguments: request.arguments,
      required: requiredKeys(request.definition),
      label: formatLabel(request.label),
      step: request.refusal.step,
      reason: request.refusal.reason,
      requestedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutMs).toISOString(),
      definitionHash: hashOf(request.definition),
      argumentsHash: hashOf(request.arguments),
    };
    await this.store.add(pending);
    const timer = setTimeout(() => void this.settle(id, { granted: false, outcome: 'expired', by: 'timeout', reason: `no decision within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs);
    timer.unref();
    const verdict = this.store.wait(id).finally(() => clearTimeout(timer));
    return { pending: shown(pending), verdict };
  }

  /** A human's decision. Throws when the request is unknown or already decided. */
  async decide(id: string, decision: Decision): Promise<Verdict> {
    const verdict: Verdict = decision.approve
      ? { granted: true, outcome: 'granted', by: decision.by, reason: decision.reason }
      : { granted: false, outcome: 'denied', by: decision.by, reason: decision.reason };
    const won = await this.settle(id, verdict);
    if (!won) throw new Error(`no pending approval ${id} (unknown, already decided, or expired)`);
    if (decision.approve && decision.scope && decision.scope !== 'once') {
      await this.store.addGrant({
        agent: won.agent,
        tool: won.tool,
        scope: decision.scope,
        session: decision.scope === 'session' ? won.session : undefined,
        argumentsHash: decision.pinArguments ? won.argumentsHash : undefined,
        definitionHash: won.definitionHash,
        expiresAt: decision.expiresInSeconds ? Date.now() + decision.expiresInSeconds * 1000 : undefined,
        process: decision.untilRestart ? this.processId : undefined,
      });
    }
    return verdict;
  }

  /** Ends a session's standing grants (its "for this session" approvals die with it) and its waiting requests. */
  async endSession(session: string): Promise<void> {
    for (const p of await this.store.endSession(session)) {
      await this.settle(p.id, { granted: false, outcome: 'denied', by: 'sluice', reason: 'the session ended' });
    }
  }

  private async settle(id: string, verdict: Verdict): Promise<PendingApproval | undefined> {
    return this.store.settle(id, verdict);
  }
}
