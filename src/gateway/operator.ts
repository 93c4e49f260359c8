import { formatLabel, type Label } from '../ifc/label.js';
import type { Gateway } from './gateway.js';

/** A session as the operator sees it. */
export interface SessionView {
  id: string;
  agent: string;
  transport: string;
  protocolVersion?: string;
  label: string;
  idleSeconds: number;
}

/**
 * What the operator can do to a running gateway: pause and resume every call, look at sessions, and reset
 * labels. Each action is recorded like any other decision.
 */
export class Operator {
  constructor(private readonly gateway: Gateway) {}

  status(): { paused: boolean; sessions: SessionView[]; identities: Record<string, string> } & ReturnType<Gateway['status']> {
    const security = this.gateway.security;
    const sessions = [...this.gateway.sessions.values()].map((s) => ({
      id: s.id,
      agent: s.principal?.agent ?? '(none)',
      transport: s.transport,
      protocolVersion: s.protocolVersion,
      label: formatLabel(security.labels.of({ id: s.id, agent: s.principal?.agent ?? '(none)', stateless: false })),
      idleSeconds: Math.round((Date.now() - s.lastSeen) / 1000),
    }));
    const identities = Object.fromEntries(Object.entries(security.labels.snapshot().identities).map(([a, l]) => [a, formatLabel(l as Label)]));
    return { ...this.gateway.status(), paused: security.paused, sessions, identities };
  }

  async setPaused(paused: boolean, by: string): Promise<void> {
    this.gateway.security.paused = paused;
    await this.record(paused ? 'pause' : 'resume', by);
  }

  /** Lowers a label back to trusted/public: one session's, or an identity's and all its sessions'. */
  async resetLabel(target: { session?: string; agent?: string }, by: string): Promise<{ reset: string[] }> {
    const security = this.gateway.security;
    const sessions = [...this.gateway.sessions.values()];
    const ofAgent = (agent: string) => sessions.filter((s) => s.principal?.agent === agent).map((s) => s.id);
    if (target.session && !this.gateway.sessions.has(target.session)) throw new Error(`no session ${target.session}`);
    security.labels.reset({ sessionId: target.session, agent: target.agent }, ofAgent);
    const reset = [...(target.session ? [target.session] : []), ...(target.agent ? ofAgent(target.agent) : [])];
    await this.record(`session reset ${target.session ? `session ${target.session}` : `agent ${target.agent}`}`, by);
    return { reset };
  }

  private record(action: string, by: string): Promise<void> {
    return this.gateway.security.record({ time: new Date().toISOString(), agent: by, session: '-', transport: 'http', method: 'operator', target: action, outcome: 'allow', durationMs: 0 });
  }
}
