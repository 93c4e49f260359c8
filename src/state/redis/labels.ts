import { BOTTOM, formatLabel, parseLabel, type Label } from '../../ifc/label.js';
import type { LabelHolder, LabelStore } from '../ports.js';
import { Script, type SharedRedis } from './client.js';
import type { Keys } from './keys.js';
import { LABEL_SCRIPT } from './scripts.js';

const labelScript = new Script(LABEL_SCRIPT);

/** Session labels and identity marks in two hashes; a read or a raise is one script: atomic, one round trip. */
export class RedisLabels implements LabelStore {
  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
  ) {}

  private async run(holder: LabelHolder, seen: Label | undefined): Promise<{ before: Label; after: Label }> {
    const out = (await this.redis.script(labelScript, [this.keys.sessionLabels(), this.keys.marks()], [
      holder.id,
      holder.agent,
      holder.stateless ? '1' : '0',
      holder.isolated ? '1' : '0',
      seen ? formatLabel(seen) : '',
    ])) as [string, string];
    return { before: parseLabel(out[0]), after: parseLabel(out[1]) };
  }

  async of(holder: LabelHolder): Promise<Label> {
    return (await this.run(holder, undefined)).before;
  }

  raise(holder: LabelHolder, seen: Label): Promise<{ before: Label; after: Label }> {
    return this.run(holder, seen);
  }

  async forget(sessionId: string): Promise<void> {
    await this.redis.run((r) => r.hdel(this.keys.sessionLabels(), sessionId));
  }

  async reset(target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]): Promise<void> {
    const bottom = formatLabel(BOTTOM);
    await this.redis.transaction((tx) => {
      if (target.sessionId) tx.hset(this.keys.sessionLabels(), target.sessionId, bottom);
      if (target.agent) {
        tx.hdel(this.keys.marks(), target.agent);
        for (const id of sessionsOfAgent) tx.hset(this.keys.sessionLabels(), id, bottom);
      }
    });
  }

  async identities(): Promise<[string, Label][]> {
    const all = await this.redis.run((r) => r.hgetall(this.keys.marks()));
    return Object.keys(all)
      .sort()
      .map((agent) => [agent, parseLabel(all[agent])]);
  }
}
