export interface GarbageLimits {
  /** More invalid messages than this within `windowMs` and the server is restarted. */
  max: number;
  windowMs: number;
  /** At most one log line per this long; the ones in between are counted into the next. */
  logEveryMs: number;
}

export const GARBAGE_LIMITS: GarbageLimits = { max: 100, windowMs: 10_000, logEveryMs: 1_000 };

export interface GarbageVerdict {
  /** Whether to log this one. */
  log: boolean;
  /** How many went unlogged since the last line that was. */
  suppressed: number;
  /** The server has sent more than `max` within the window: time to restart it. */
  tooMany: boolean;
}

/**
 * Counts the invalid messages of one server: decides which to log, so that a flood costs a line a second
 * rather than a line a message, and when the server has sent so many that it is broken rather than unlucky.
 */
export class GarbageGuard {
  /** The times of the last `max` invalid messages, oldest next to be overwritten. */
  private readonly times: Float64Array;
  private next = 0;
  private seen = 0;
  private lastLogAt = -Infinity;
  private suppressed = 0;

  constructor(readonly limits: GarbageLimits = GARBAGE_LIMITS) {
    this.times = new Float64Array(limits.max);
  }

  note(now: number): GarbageVerdict {
    // The slot about to be overwritten holds the message `max` before this one: within the window, that makes
    // max + 1 of them.
    const oldest = this.times[this.next];
    const tooMany = this.seen >= this.limits.max && now - oldest < this.limits.windowMs;
    this.times[this.next] = now;
    this.next = (this.next + 1) % this.limits.max;
    this.seen++;
    if (tooMany) this.seen = 0; // a fresh count for the restarted server
    const log = now - this.lastLogAt >= this.limits.logEveryMs || tooMany;
    const suppressed = this.suppressed;
    if (log) {
      this.lastLogAt = now;
      this.suppressed = 0;
    } else this.suppressed++;
    return { log, suppressed, tooMany };
  }
}
