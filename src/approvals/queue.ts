import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { canonicalJson } from '../audit/canonical.js';
import { sha256 } from '../audit/chain.js';
import { formatLabel } from '../ifc/label.js';
import type { ApprovalRequest } from '../policy/security.js';
import type { Params } from '../protocol/jsonrpc.js';

export type Scope = 'once' | 'session' | 'always';

/** A call waiting for a human. What the console and `sluice approvals list` show. */
export interface Pending {
  id: string;
  agent: string;
  session: string;
  tool: string;
  arguments: Params;
  label: string;
  step: string;
  reason: string;
  requestedAt: string;
  expiresAt: string;
}

/** A standing permission from an earlier "approve for this session / always". */
interface Grant {
  agent: string;
  tool: string;
  scope: 'session' | 'always';
  session?: string;
  /** When set, the grant covers only calls with exactly these arguments. */
  argumentsHash?: string;
  /** The tool's definition when it was approved: a changed tool is not the tool that was approved. */
  definitionHash: string;
  expiresAt?: number;
}

export interface Decision {
  approve: boolean;
  scope?: Scope;
  pinArguments?: boolean;
  /** How long a session/always grant lasts; unset: until the gateway restarts (session: until it ends). */
  expiresInSeconds?: number;
  by: string;
  reason?: string;
}

export type Verdict = { granted: boolean; reason?: string; outcome: 'granted' | 'denied' | 'expired'; by: string };

interface Waiting {
  pending: Pending;
  request: ApprovalRequest;
  definitionHash: string;
  argumentsHash: string;
  resolve(v: Verdict): void;
  timer: NodeJS.Timeout;
}

export const hashOf = (value: unknown) => sha256(canonicalJson(value ?? null));

/**
 * Calls waiting for a human decision, and the grants earlier decisions left. Request ids are 128 random
 * bits; each can be decided once (the first decision wins, a second is told so); an unanswered request is
 * denied when it expires.
 */
export class ApprovalQueue extends EventEmitter<{ changed: [] }> {
  private readonly waiting = new Map<string, Waiting>();
  private grants: Grant[] = [];

  constructor(private readonly timeoutMs = 120_000) {
    super();
  }

  list(): Pending[] {
    return [...this.waiting.values()].map((w) => w.pending);
  }

  /** A grant already covers this call (same agent, tool definition, session or arguments where pinned). */
  covered(request: ApprovalRequest, definition: Params | undefined): boolean {
    const now = Date.now();
    this.grants = this.grants.filter((g) => g.expiresAt === undefined || g.expiresAt > now);
    const definitionHash = hashOf(definition);
    const argumentsHash = hashOf(request.arguments);
    return this.grants.some(
      (g) =>
        g.agent === request.principal.agent &&
        g.tool === request.tool &&
        g.definitionHash === definitionHash &&
        (g.scope === 'always' || g.session === request.sessionId) &&
        (g.argumentsHash === undefined || g.argumentsHash === argumentsHash),
    );
  }

  /** Waits for a human; resolves with their verdict, or a denial when the request expires. */
  ask(request: ApprovalRequest, definition: Params | undefined, timeoutMs = this.timeoutMs): { pending: Pending; verdict: Promise<Verdict> } {
    const id = randomBytes(16).toString('hex');
    const now = Date.now();
    const pending: Pending = {
      id,
      agent: request.principal.agent,
      session: request.sessionId,
      tool: request.tool,
      arguments: request.arguments,
      label: formatLabel(request.label),
      step: request.refusal.step,
      reason: request.refusal.reason,
      requestedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutMs).toISOString(),
    };
    const verdict = new Promise<Verdict>((resolve) => {
      const timer = setTimeout(() => this.settle(id, { granted: false, outcome: 'expired', by: 'timeout', reason: `no decision within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs);
      timer.unref();
      this.waiting.set(id, { pending, request, definitionHash: hashOf(definition), argumentsHash: hashOf(request.arguments), resolve, timer });
    });
    this.emit('changed');
    return { pending, verdict };
  }

  /** A human's decision. Throws when the request is unknown or already decided. */
  decide(id: string, decision: Decision): Verdict {
    const w = this.waiting.get(id);
    if (!w) throw new Error(`no pending approval ${id} (unknown, already decided, or expired)`);
    if (decision.approve && decision.scope && decision.scope !== 'once') {
      this.grants.push({
        agent: w.pending.agent,
        tool: w.pending.tool,
        scope: decision.scope,
        session: decision.scope === 'session' ? w.pending.session : undefined,
        argumentsHash: decision.pinArguments ? w.argumentsHash : undefined,
        definitionHash: w.definitionHash,
        expiresAt: decision.expiresInSeconds ? Date.now() + decision.expiresInSeconds * 1000 : undefined,
      });
    }
    const verdict: Verdict = decision.approve
      ? { granted: true, outcome: 'granted', by: decision.by, reason: decision.reason }
      : { granted: false, outcome: 'denied', by: decision.by, reason: decision.reason };
    this.settle(id, verdict);
    return verdict;
  }

  /** Ends a session's standing grants (its "for this session" approvals die with it). */
  endSession(session: string): void {
    this.grants = this.grants.filter((g) => g.session !== session);
    for (const w of [...this.waiting.values()]) {
      if (w.pending.session === session) this.settle(w.pending.id, { granted: false, outcome: 'denied', by: 'sluice', reason: 'the session ended' });
    }
  }

  private settle(id: string, verdict: Verdict): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    w.resolve(verdict);
    this.emit('changed');
  }
}
