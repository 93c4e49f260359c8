import { pinId, type DefinitionPin, type PinStore } from '../ports.js';
import type { SharedRedis } from './client.js';
import type { Keys } from './keys.js';

/** Pins in one hash, a field per server, kind and name: every replica reads and writes the same. */
export class RedisPins implements PinStore {
  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
  ) {}

  async list(server?: string): Promise<DefinitionPin[]> {
    const all = await this.redis.run((r) => r.hvals(this.keys.pins()));
    return all.map((v) => JSON.parse(v) as DefinitionPin).filter((p) => server === undefined || p.server === server);
  }

  async get(server: string, kind: DefinitionPin['kind'], name: string): Promise<DefinitionPin | undefined> {
    const value = await this.redis.run((r) => r.hget(this.keys.pins(), pinId({ server, kind, name })));
    return value === null ? undefined : (JSON.parse(value) as DefinitionPin);
  }

  async put(pins: readonly DefinitionPin[]): Promise<void> {
    if (pins.length === 0) return;
    await this.redis.run((r) => r.hset(this.keys.pins(), Object.fromEntries(pins.map((p) => [pinId(p), JSON.stringify(p)]))));
  }
}
