import { formatLabel } from '../ifc/label.js';
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

  async status(): Promise<{ paused: boolean; sessions: SessionView[]; identities: Record<string, string> } & ReturnType<Gateway['status']>> {
    const security = this.gateway.security;
    const sessions = await Promise.all(
      [...this.gateway.sessions.all.values()].map(async (s) => ({
        id: s.id,
        agent: s.principal?.agent ?? '(none)',
        transport: s.transport,
        protocolVersion: s.protocolVersion,
        label: formatLabel(await security.labels.of({ id: s.id, agent: s.principal?.agent ?? '(none)', stateless: false })),
        idleSeconds: Math.round((Date.now() - s.lastSeen) / 1000),
      })),
    );
    // A Map first: agent names come from token files and configs, and become keys of the answer only here.
    const identities = Object.fromEntries(new Map((await security.labels.identities()).map(([agent, label]) => [agent, formatLabel(label)])));
    const status = this.gateway.status();
    // The operator also sees each upstream's last error as it was said (redacted where it failed: upstream.ts).
    const errors = new Map(this.gateway.upstreams.map((u) => [u.name, u.lastError]));
    const upstreams = status.upstreams.map((u) => {
      const lastError = errors.get(String(u.name));
      return lastError ? { ...u, lastError } : u;
    });
    return { ...status, upstreams, paused: await security.switches.get('paused'), sessions, identities };
  }

  async setPaused(paused: boolean, by: string): Promise<void> {
    await this.gateway.security.switches.set('paused', paused);
    await this.record(paused ? 'pause' : 'resume', by);
  }

  /**
   * Lowers a label back to trusted/public: one session's, or an identity's and all its sessions'. An agent is
   * one actor, so unless its role isolates sessions, resetting one of its sessions resets the agent.
   */
  async resetLabel(target: { session?: string; agent?: string }, by: string): Promise<{ reset: string[] }> {
    const security = this.gateway.security;
    const sessions = [...this.gateway.sessions.all.values()];
    if (target.session) {
      const session = this.gateway.sessions.all.get(target.session);
      if (!session) throw new Error(`no session ${target.session}`);
      const agent = session.principal?.agent;
      if (agent && !security.role(session.principal)?.isolateSessions) target = { session: target.session, agent };
    }
    const ofAgent = target.agent ? sessions.filter((s) => s.principal?.agent === target.agent).map((s) => s.id) : [];
    await security.labels.reset({ sessionId: target.session, agent: target.agent }, ofAgent);
    const reset = [...new Set([...(target.session ? [target.session] : []), ...ofAgent])];
    await this.record(`session reset ${target.session ? `session ${target.session}${target.agent ? ` (agent ${target.agent}: its sessions share one label)` : ""}` : `agent ${target.agent}`}`, by);
    return { reset };
  }

  private async record(action: string, by: string): Promise<void> {
    await this.gateway.security.recorder.record({ time: new Date().toISOString(), agent: by, session: '-', transport: 'http', method: 'operator', target: action, outcome: 'allow', durationMs: 0 });
  }
}
