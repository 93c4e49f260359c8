import type { BucketTake, RateLimitStore, TakeResult } from '../ports.js';
import { Script, type SharedRedis } from './client.js';
import type { Keys } from './keys.js';
import { TAKE_SCRIPT } from './scripts.js';

const takeScript = new Script(TAKE_SCRIPT);

/** Token buckets as hashes, all of a request's taken (or none) in one script, on Redis's clock. */
export class RedisRateLimits implements RateLimitStore {
  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
  ) {}

  async take(buckets: readonly BucketTake[]): Promise<TakeResult> {
    if (buckets.length === 0) return { ok: true };
    const out = (await this.redis.script(
      takeScript,
      buckets.map((b) => this.keys.bucket(b.key)),
      buckets.flatMap((b) => [b.bucket.burst, b.bucket.perSecond]),
    )) as number[];
    return out[0] === 1 ? { ok: true } : { ok: false, index: out[1], retryAfterMs: out[2] };
  }
}
