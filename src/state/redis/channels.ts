import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Keys } from './keys.js';

/** Pub/sub on the one subscriber connection: channel name → local listeners. */
export class Channels {
  private readonly listeners = new Map<string, Set<(text: string) => void>>();
  /** Fires when the subscriber reconnected: whatever was published meanwhile is lost, so caches must go. */
  readonly reconnected = new EventEmitter<{ ready: [] }>();

  constructor(
    private readonly subscriber: Redis,
    private readonly keys: Keys,
  ) {
    subscriber.on('message', (channel: string, text: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener(text);
    });
    subscriber.on('ready', () => this.reconnected.emit('ready'));
    subscriber.on('close', () => this.reconnected.emit('ready'));
  }

  name(channel: string): string {
    return this.keys.channel(channel);
  }

  listen(channel: string, listener: (text: string) => void): () => void {
    const name = this.name(channel);
    let set = this.listeners.get(name);
    if (!set) {
      this.listeners.set(name, (set = new Set()));
      void this.subscriber.subscribe(name).catch(() => undefined); // resubscribed on reconnect by ioredis
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0) return;
      this.listeners.delete(name);
      void this.subscriber.unsubscribe(name).catch(() => undefined);
    };
  }
}
