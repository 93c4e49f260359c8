import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ConsoleLogin, SessionRecord, SseStreamRecord, StateStores } from './ports.js';
import { RedisApprovals } from './redis/approvals.js';
import { RedisBus } from './redis/bus.js';
import { Channels } from './redis/channels.js';
import { SharedRedis } from './redis/client.js';
import { connectRedis, type RedisConnectionOptions } from './redis/connection.js';
import { Keys } from './redis/keys.js';
import { RedisLabels } from './redis/labels.js';
import { RedisPins } from './redis/pins.js';
import { RedisRateLimits } from './redis/rate-limits.js';
import { RedisRecords } from './redis/records.js';
import { RedisSwitches } from './redis/switches.js';
import { RedisTokens } from './redis/tokens.js';

export interface RedisStateOptions extends RedisConnectionOptions {
  keyPrefix: string;
  sealKey: Buffer;
}

/**
 * The shared state for a cluster: every port in one Redis (one file per port under redis/), so any replica
 * can serve any request. Checks read Redis on every call (no cache that another replica's write could leave
 * stale), except the pause switch, which is cached for at most half a second and dropped at once when a change
 * is published. Every command goes through one SharedRedis: with Redis unreachable, or refusing, it rejects at
 * once with the one documented error, so every check that needs it refuses: fail closed.
 */
export async function redisState(url: string, options: RedisStateOptions): Promise<StateStores> {
  const commands = await connectRedis(url, 'commands', options);
  let subscriber: Redis | undefined;
  try {
    subscriber = await connectRedis(url, 'subscriber', options);
    return await stores(commands, subscriber, options);
  } catch (err) {
    subscriber?.disconnect();
    commands.disconnect();
    throw err;
  }
}

async function stores(commands: Redis, subscriber: Redis, options: RedisStateOptions): Promise<StateStores> {
  const redis = new SharedRedis(commands);
  const keys = new Keys(options.keyPrefix);
  const channels = new Channels(subscriber, keys);
  const replicaId = randomBytes(8).toString('hex');
  const approvals = new RedisApprovals(redis, keys, channels, replicaId);
  await approvals.start();
  return {
    labels: new RedisLabels(redis, keys),
    limits: new RedisRateLimits(redis, keys),
    switches: new RedisSwitches(redis, keys, channels, replicaId),
    approvals,
    sessions: new RedisRecords<SessionRecord>(redis, keys, 'session'),
    consoleLogins: new RedisRecords<ConsoleLogin>(redis, keys, 'console'),
    sseStreams: new RedisRecords<SseStreamRecord>(redis, keys, 'sse'),
    tokens: new RedisTokens(redis, keys),
    bus: new RedisBus(redis, keys, channels, replicaId),
    pins: new RedisPins(redis, keys),
    sealKey: options.sealKey,
    close: async () => {
      await approvals.stop();
      subscriber.disconnect();
      await commands.quit().catch(() => commands.disconnect());
    },
  };
}
