import type { Recorder } from '../policy/decision.js';

/** A refused login as the front door saw it. */
export interface AuthFailure {
  status: number;
  reason: string;
  /** A fingerprint of the token presented (never the token). */
  token?: string;
}

interface Window {
  count: number;
  tokens: Set<string>;
  lastReason: string;
  timer: NodeJS.Timeout;
}

const MAX_SOURCES = 10_000;

/**
 * Records refused logins, so token guessing shows in the audit log — coalesced per source: the first refusal
 * from an address is recorded at once, further ones within the same second are counted and recorded as one
 * record when the second ends. A flood of bad tokens therefore writes at most about one record per source per
 * second; past 10,000 sources at once, the rest share one window.
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
      open.count++;
      if (failure.token && open.tokens.size < 100) open.tokens.add(failure.token);
      open.lastReason = failure.reason;
      return;
    }
    this.write(source, target, failure.reason, failure.token);
    const window: Window = { count: 0, tokens: new Set(), lastReason: failure.reason, timer: setTimeout(() => this.close(source, target), this.windowMs) };
    window.timer.unref();
    this.windows.set(source, window);
  }

  /** The second is over: one record for what was counted, and a new window while refusals keep coming. */
  private close(source: string, target: string): void {
    const window = this.windows.get(source);
    if (!window) return;
    if (window.count === 0) {
      this.windows.delete(source);
      return;
    }
    const n = window.count;
    const tokens = [...window.tokens];
    this.write(source, target, `${n} more refused login${n === 1 ? '' : 's'} in ${this.windowMs / 1000} s (last: ${window.lastReason})`, tokens.length ? `${tokens.length} distinct token${tokens.length === 1 ? '' : 's'}: ${tokens.join(', ')}` : undefined);
    window.count = 0;
    window.tokens.clear();
    window.timer = setTimeout(() => this.close(source, target), this.windowMs);
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
