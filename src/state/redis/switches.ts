import { Listeners } from '../memory-state.js';
import { SWITCHES, type SwitchName, type SwitchStore } from '../ports.js';
import type { Channels } from './channels.js';
import type { SharedRedis } from './client.js';
import type { Keys } from './keys.js';

/** How long a replica trusts its copy of a switch when no change was published: a lost message costs at most this. */
const SWITCH_CACHE_MS = 500;

/** Switches as keys; a change is published in the same transaction, so every replica drops its copy at once. */
export class RedisSwitches implements SwitchStore {
  private readonly changes = new Listeners<[SwitchName, boolean]>();
  private readonly cache = new Map<SwitchName, { on: boolean; at: number }>();

  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
    channels: Channels,
    private readonly replicaId: string,
  ) {
    channels.listen('switches', (text) => {
      const change = parseSwitchChange(text);
      if (!change || change.from === this.replicaId) return; // our own set: already applied and told
      // The message says a switch changed; Redis says to what (a late message must not undo a newer value).
      this.cache.delete(change.name);
      this.changes.tell(change.name, change.on);
    });
    channels.reconnected.on('ready', () => this.cache.clear());
  }

  async get(name: SwitchName): Promise<boolean> {
    const cached = this.cache.get(name);
    if (cached && performance.now() - cached.at < SWITCH_CACHE_MS) return cached.on;
    const on = (await this.redis.run((r) => r.get(this.keys.switch(name)))) === '1';
    this.cache.set(name, { on, at: performance.now() });
    return on;
  }

  async set(name: SwitchName, on: boolean): Promise<void> {
    if (!SWITCHES.includes(name)) throw new Error(`unknown switch ${String(name)}`);
    // Only once Redis has taken both the value and the announcement is it set, here or anywhere.
    await this.redis.transaction((tx) =>
      tx.set(this.keys.switch(name), on ? '1' : '0').publish(this.keys.channel('switches'), JSON.stringify({ name, on, from: this.replicaId })),
    );
    this.cache.set(name, { on, at: performance.now() });
    this.changes.tell(name, on);
  }

  watch(listener: (name: SwitchName, on: boolean) => void): () => void {
    return this.changes.watch(listener);
  }
}

function parseSwitchChange(text: string): { name: SwitchName; on: boolean; from: string } | undefined {
  try {
    const m = JSON.parse(text) as { name?: unknown; on?: unknown; from?: unknown };
    const name = SWITCHES.find((s) => s === m.name);
    return name && typeof m.on === 'boolean' && typeof m.from === 'string' ? { name, on: m.on, from: m.from } : undefined;
  } catch {
    return undefined;
  }
}
