import { copy } from '../memory-state.js';
import type { RecordStore } from '../ports.js';
import type { SharedRedis } from './client.js';
import type { Keys } from './keys.js';
import { parseJson } from './parse.js';

/** A record per key, expired by Redis itself. */
export class RedisRecords<T> implements RecordStore<T> {
  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
    private readonly kind: string,
  ) {}

  async get(key: string): Promise<T | undefined> {
    const v = parseJson(await this.redis.run((r) => r.get(this.keys.record(this.kind, key))));
    return v === undefined ? undefined : (v as T);
  }

  async put(key: string, value: T, ttlMs: number): Promise<void> {
    await this.redis.run((r) => r.set(this.keys.record(this.kind, key), JSON.stringify(copy(value)), 'PX', Math.max(1, Math.ceil(ttlMs))));
  }

  async touch(key: string, ttlMs: number): Promise<void> {
    await this.redis.run((r) => r.pexpire(this.keys.record(this.kind, key), Math.max(1, Math.ceil(ttlMs))));
  }

  async delete(key: string): Promise<void> {
    await this.redis.run((r) => r.del(this.keys.record(this.kind, key)));
  }
}
