import type { Bus, BusMessages, BusTopic, ParkedMessage, PinsMessage, SessionMessage, SseMessage } from '../ports.js';
import type { Channels } from './channels.js';
import type { SharedRedis } from './client.js';
import type { Keys } from './keys.js';
import { isObject, isString, parseJson } from './parse.js';

/** Messages between replicas over pub/sub: at most once, and never back to the replica that sent them. */
export class RedisBus implements Bus {
  readonly shared = true;

  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
    private readonly channels: Channels,
    readonly replicaId: string,
  ) {}

  async publish<T extends BusTopic>(topic: T, message: BusMessages[T]): Promise<void> {
    await this.redis.run((r) => r.publish(this.keys.channel(`bus:${topic}`), JSON.stringify({ from: this.replicaId, message })));
  }

  subscribe<T extends BusTopic>(topic: T, listener: (message: BusMessages[T]) => void): () => void {
    const valid = BUS_SHAPES[topic] as (v: unknown) => v is BusMessages[T];
    return this.channels.listen(`bus:${topic}`, (text) => {
      const v = parseJson(text);
      if (!isObject(v) || v.from === this.replicaId || !valid(v.message)) return;
      listener(v.message);
    });
  }
}

const SESSION_KINDS = new Set(['to-client', 'from-client', 'changed', 'ended']);
const PARKED_KINDS = new Set(['resume', 'accepted', 'outcome']);

/** Only the shape: the replica that acts on a message checks its content as it would a client's. */
const BUS_SHAPES: { [T in BusTopic]: (v: unknown) => v is BusMessages[T] } = {
  sessions: (v): v is SessionMessage =>
    isObject(v) && typeof v.session === 'string' && SESSION_KINDS.has(String(v.kind)) && (v.kind === 'changed' || v.kind === 'ended' || isObject(v.message)),
  parked: (v): v is ParkedMessage => isObject(v) && PARKED_KINDS.has(String(v.kind)) && isString(v.to) && isString(v.reply),
  sse: (v): v is SseMessage => isObject(v) && isString(v.stream) && isString(v.owner) && isString(v.text),
  pins: (v): v is PinsMessage => isObject(v) && isString(v.server),
};
