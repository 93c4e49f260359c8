import type { Bucket } from '../config/schema.js';

interface State {
  tokens: number;
  at: number;
}

/**
 * Token buckets keyed by whatever the caller chooses (identity, identity+tool). Refilled lazily on use, so
 * an idle key costs nothing; `take` says how long to wait when the bucket is empty.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, State>();

  take(key: string, bucket: Bucket, now = Date.now()): { ok: true } | { ok: false; retryAfterMs: number } {
    const state = this.buckets.get(key) ?? { tokens: bucket.burst, at: now };
    const refilled = Math.min(bucket.burst, state.tokens + ((now - state.at) / 1000) * bucket.perSecond);
    if (refilled >= 1) {
      this.buckets.set(key, { tokens: refilled - 1, at: now });
      return { ok: true };
    }
    this.buckets.set(key, { tokens: refilled, at: now });
    return { ok: false, retryAfterMs: Math.ceil(((1 - refilled) / bucket.perSecond) * 1000) };
  }
}
