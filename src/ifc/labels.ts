import { BOTTOM, join, sameLabel, type Label } from './label.js';

/** What the label store needs to know about a session. */
export interface LabelHolder {
  id: string;
  agent: string;
  /** Stateless requests have no session: their label is their identity's. */
  stateless: boolean;
}

/**
 * Session labels, and each identity's high-water mark. A label only rises. A new session of an identity
 * starts at that identity's mark, so re-initialising, reconnecting or switching transport never lowers what
 * an agent is known to hold; sessions that are open at the same time do not raise each other. Only an
 * operator reset lowers a label.
 */
export class LabelStore {
  private readonly sessions = new Map<string, Label>();
  private readonly identities = new Map<string, Label>();

  of(holder: LabelHolder): Label {
    if (holder.stateless) return this.identities.get(holder.agent) ?? BOTTOM;
    let label = this.sessions.get(holder.id);
    if (!label) {
      label = this.identities.get(holder.agent) ?? BOTTOM;
      this.sessions.set(holder.id, label);
    }
    return label;
  }

  /** Joins `seen` into the holder's label (and its identity's mark); returns the label before and after. */
  raise(holder: LabelHolder, seen: Label): { before: Label; after: Label } {
    const before = this.of(holder);
    const after = join(before, seen);
    if (!sameLabel(before, after)) {
      if (!holder.stateless) this.sessions.set(holder.id, after);
    }
    const identity = this.identities.get(holder.agent) ?? BOTTOM;
    const raised = join(identity, after);
    if (!sameLabel(identity, raised)) this.identities.set(holder.agent, raised);
    return { before, after };
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Operator action: back to the bottom for one session, or for an identity and all its sessions. */
  reset(target: { sessionId?: string; agent?: string }, sessionsOfAgent: (agent: string) => string[] = () => []): void {
    if (target.sessionId) this.sessions.set(target.sessionId, BOTTOM);
    if (target.agent) {
      this.identities.delete(target.agent);
      for (const id of sessionsOfAgent(target.agent)) this.sessions.set(id, BOTTOM);
    }
  }

  snapshot(): { sessions: Record<string, Label>; identities: Record<string, Label> } {
    return { sessions: Object.fromEntries(this.sessions), identities: Object.fromEntries(this.identities) };
  }
}
