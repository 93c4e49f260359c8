import type { Recorder } from '../policy/decision.js';

/** A refused login as the front door saw it. */
export interface AuthFailure {
  status: number;
  reason: string;
  /** A fingerprint of the token presented (never the token). */
  token?: string;
}

/** The refusals counted at one path of one source within a window. */
interface Tally {
  count: number;
  /** How many of them for each reason, in the order first seen. */
  reasons: Map<string, number>;
  tokens: Set<string>;
}

interface Window {
  /** Per path knocked at: each gets a record of its own, so a filter on the path finds every refusal there. */
  tallies: Map<string, Tally>;
  timer: NodeJS.Timeout;
}

const MAX_SOURCES = 10_000;
/** Distinct paths and reasons kept per window (past them, counted under one heading), and token fingerprints. */
const MAX_KINDS = 20;
const MAX_TOKENS = 100;

/**
 * Records refused logins, so token guessing shows in the audit log — coalesced per source: the first refusal
 * from an address is recorded at once, further ones within the same second are counted and recorded when the
 * second ends, one record per path with a count for each reason — a refusal that matters (a valid token
 * without the scope, an agent trying the operator's login) is never hidden behind the guesses around it. A
 * flood of bad tokens therefore writes at most about one record per source and path per second; past 10,000
 * sources at once, the rest share one window.
 */
export class AuthFailures {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly recorder: Recorder,
    private readonly windowMs = 1000,
  ) {}

  note(address: string, target: string, failure: AuthFailure): void {
    const source = this.windows.has(address) || this.windows.size < MAX_SOURCES ? address : '(other sources)';
    const open = this.windows.get(source);
    if (open) {
      count(open.tallies, target, failure);
      return;
    }
    this.write(source, target, failure.reason, failure.token);
    const window: Window = { tallies: new Map(), timer: setTimeout(() => this.close(source), this.windowMs) };
    window.timer.unref();
    this.windows.set(source, window);
  }

  /** The second is over: one record per path for what was counted, and a new window while refusals keep coming. */
  private close(source: string): void {
    const window = this.windows.get(source);
    if (!window) return;
    if (window.tallies.size === 0) {
      this.windows.delete(source);
      return;
    }
    for (const [target, t] of window.tallies) {
      const reasons = [...t.reasons].map(([reason, n]) => `${n} × ${reason}`).join(', ');
      const tokens = [...t.tokens];
      this.write(
        source,
        target,
        `${t.count} more refused login${t.count === 1 ? '' : 's'} in ${this.windowMs / 1000} s: ${reasons}`,
        tokens.length ? `${tokens.length} distinct token${tokens.length === 1 ? '' : 's'}: ${tokens.join(', ')}` : undefined,
      );
    }
    window.tallies.clear();
    window.timer = setTimeout(() => this.close(source), this.windowMs);
    window.timer.unref();
  }

  private write(source: string, target: string, reason: string, token: string | undefined): void {
    void this.recorder
      .record(
        {
          time: new Date().toISOString(),
          agent: '(unauthenticated)',
          session: '-',
          transport: 'http',
          method: 'authenticate',
          target,
          outcome: 'deny',
          step: 'authenticate',
          reason,
          client: token ? `${source} ${token}` : source,
          durationMs: 0,
        },
        { droppable: true },
      )
      .catch(() => undefined);
  }

  stop(): void {
    for (const w of this.windows.values()) clearTimeout(w.timer);
    this.windows.clear();
  }
}

/** `key`, or once a map holds MAX_KINDS keys and not this one, the heading the rest are counted under. */
const capped = (map: Map<string, unknown>, key: string, other: string) => (map.has(key) || map.size < MAX_KINDS ? key : other);

function count(tallies: Map<string, Tally>, target: string, failure: AuthFailure): void {
  const path = capped(tallies, target, '(other paths)');
  let t = tallies.get(path);
  if (!t) tallies.set(path, (t = { count: 0, reasons: new Map(), tokens: new Set() }));
  t.count++;
  const reason = capped(t.reasons, failure.reason, '(other reasons)');
  t.reasons.set(reason, (t.reasons.get(reason) ?? 0) + 1);
  if (failure.token && t.tokens.size < MAX_TOKENS) t.tokens.add(failure.token);
}
