import type Database from 'better-sqlite3';
import { Listeners, Waiters } from '../memory-state.js';
import type { ApprovalStore, ApprovalVerdict, Grant, PendingApproval } from '../ports.js';

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/** How long a decided request stays in the table: the audit log has it for good. */
const DECIDED_KEPT_MS = 3_600_000;

/** Requests and grants as JSON rows; every statement prepared once, with the store. */
export class SqliteApprovals implements ApprovalStore {
  private readonly waiters = new Waiters();
  private readonly changes = new Listeners<[]>();
  private readonly insert: Statement<[string, string, string]>;
  private readonly undecided: Statement<[], string>;
  private readonly decide: Statement<[string, string], string>;
  private readonly dropDecided: Statement<[string]>;
  private readonly verdict: Statement<[string], string | null>;
  private readonly insertGrant: Statement<[string, string, string | null, number | null, string]>;
  private readonly liveGrants: Statement<[string, string, number], string>;
  private readonly dropSessionGrants: Statement<[string]>;
  private readonly sessionRequests: Statement<[string], string>;

  constructor(db: Database.Database) {
    this.insert = db.prepare('INSERT INTO approvals (id, session, body) VALUES (?, ?, ?)');
    this.undecided = db.prepare<[], string>('SELECT body FROM approvals WHERE verdict IS NULL ORDER BY rowid').pluck();
    // One UPDATE that only an undecided row matches: of two decisions, exactly one wins.
    this.decide = db.prepare<[string, string], string>('UPDATE approvals SET verdict = ? WHERE id = ? AND verdict IS NULL RETURNING body').pluck();
    this.dropDecided = db.prepare("DELETE FROM approvals WHERE verdict IS NOT NULL AND json_extract(body, '$.expiresAt') < ?");
    this.verdict = db.prepare<[string], string | null>('SELECT verdict FROM approvals WHERE id = ?').pluck();
    this.insertGrant = db.prepare('INSERT INTO grants (agent, tool, session, expires_at, body) VALUES (?, ?, ?, ?, ?)');
    this.liveGrants = db.prepare<[string, string, number], string>('SELECT body FROM grants WHERE agent = ? AND tool = ? AND (expires_at IS NULL OR expires_at > ?)').pluck();
    this.dropSessionGrants = db.prepare('DELETE FROM grants WHERE session = ?');
    this.sessionRequests = db.prepare<[string], string>('SELECT body FROM approvals WHERE session = ? AND verdict IS NULL').pluck();
  }

  async add(p: PendingApproval): Promise<void> {
    this.insert.run(p.id, p.session, JSON.stringify(p));
    this.changes.tell();
  }

  watch(listener: () => void): () => void {
    return this.changes.watch(listener);
  }

  async list(): Promise<PendingApproval[]> {
    return this.undecided.all().map((b) => JSON.parse(b) as PendingApproval);
  }

  async settle(id: string, verdict: ApprovalVerdict): Promise<PendingApproval | undefined> {
    const body = this.decide.get(JSON.stringify(verdict), id);
    if (body === undefined) return undefined;
    this.waiters.wake(id, verdict);
    this.changes.tell();
    // Decided requests are history (the audit log has them); keep the table small.
    this.dropDecided.run(new Date(Date.now() - DECIDED_KEPT_MS).toISOString());
    return JSON.parse(body) as PendingApproval;
  }

  wait(id: string): Promise<ApprovalVerdict> {
    const done = this.verdict.get(id);
    return typeof done === 'string' ? Promise.resolve(JSON.parse(done) as ApprovalVerdict) : this.waiters.wait(id);
  }

  async addGrant(g: Grant): Promise<void> {
    this.insertGrant.run(g.agent, g.tool, g.session ?? null, g.expiresAt ?? null, JSON.stringify(g));
  }

  async grants(agent: string, tool: string): Promise<Grant[]> {
    return this.liveGrants.all(agent, tool, Date.now()).map((b) => JSON.parse(b) as Grant);
  }

  async endSession(session: string): Promise<PendingApproval[]> {
    this.dropSessionGrants.run(session);
    return this.sessionRequests.all(session).map((b) => JSON.parse(b) as PendingApproval);
  }
}
