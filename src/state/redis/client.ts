import { createHash } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';

/** What ioredis says when the connection itself is gone, before `status` has caught up. */
const CONNECTION_LOST = /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE/;

/** A Lua script and its hash, for running it by hash. */
export class Script {
  readonly sha: string;

  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }
}

/**
 * The one way the Redis state talks to Redis. Whatever fails — Redis gone, a timeout, a command Redis refuses,
 * a transaction that fails as a whole or in part — rejects with the one documented error, `the shared state
 * (Redis at host:port/db) is unreachable: <why>` (never ioredis's "Stream isn't writeable…"), so every check
 * that needed it says no: fail closed. The ports are handed this, never the connection, so no command can go
 * around it.
 */
export class SharedRedis {
  constructor(private readonly redis: Redis) {}

  /** One command, or a few awaited together. */
  async run<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    try {
      return await command(this.redis);
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  /**
   * A MULTI … EXEC. Redis runs the rest of a transaction when one of its commands fails, and EXEC answers with
   * that command's error in place of its reply (or nil when it ran nothing): either is a failure, never done.
   */
  async transaction(build: (tx: ChainableCommander) => void): Promise<unknown[]> {
    const tx = this.redis.multi();
    build(tx);
    const replies = await this.run(() => tx.exec());
    if (!replies) throw this.unreachable(new Error('the transaction was not run'));
    const failed = replies.find(([err]) => err);
    if (failed) throw this.unreachable(failed[0]);
    return replies.map(([, reply]) => reply);
  }

  /** Runs a script by its hash, loading it on first use (and again after a Redis restart forgot it). */
  async script(script: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw this.unreachable(err);
      return this.run((redis) => redis.eval(script.lua, keys.length, ...keys, ...args));
    }
  }

  private unreachable(err: unknown): Error {
    const message = err instanceof Error ? err.message : String(err);
    const why = this.redis.status !== 'ready' || CONNECTION_LOST.test(message) ? 'not connected' : message;
    const { host, port, db } = this.redis.options;
    return new Error(`the shared state (Redis at ${host}:${port}/${db ?? 0}) is unreachable: ${why}`);
  }
}
