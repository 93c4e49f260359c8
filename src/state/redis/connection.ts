import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  /** Told when the connection fails or comes back, so the operator hears of it once, not per command. */
  onTrouble?: (trouble: { down: boolean; error?: string; where: string }) => void;
}

/** host:port of a Redis URL, never its password: what messages may show. */
export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}:${u.port || 6379}${u.pathname}`;
  } catch {
    return 'the configured Redis';
  }
}

/**
 * A connection that fails fast instead of queueing: with Redis down, a command rejects at once (and a check
 * that needed it says no) rather than waiting in a queue while calls pile up behind it. It reconnects on its
 * own in the background. A subscriber connection keeps its queue: it only sends (re)subscriptions.
 */
export async function connectRedis(url: string, role: 'commands' | 'subscriber', options: RedisConnectionOptions = {}): Promise<Redis> {
  const where = redisWhere(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: role === 'subscriber',
    maxRetriesPerRequest: role === 'subscriber' ? null : 0,
    commandTimeout: role === 'subscriber' ? undefined : 2000,
    connectTimeout: 3000,
    autoResubscribe: true,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), 1000),
    connectionName: `sluice-${role}`,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    options.onTrouble?.({ down: true, error: err.message, where });
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    options.onTrouble?.({ down: false, where });
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${where}: ${(err as Error).message}`);
  }
  return redis;
}
