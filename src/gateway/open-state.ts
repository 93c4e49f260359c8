import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { GatewayConfig } from '../config/schema.js';
import { FileTokenStore } from '../identity/tokens.js';
import { silentLogger, type Logger } from '../log.js';
import type { StateStores, TokenStore } from '../state/ports.js';
import { redisState } from '../state/redis-state.js';
import { loadSealKey } from '../state/seal.js';
import { sqliteState } from '../state/sqlite-state.js';

/**
 * The state stores the config names: Redis at `state.url`, shared by every replica, or the embedded SQLite
 * file in the data dir. A replica on shared state must seal with the key every other replica has, so it
 * refuses to start without `SLUICE_SESSION_KEY` rather than make a key of its own that nobody else can read.
 */
export async function openState(config: GatewayConfig, log: Logger, env: NodeJS.ProcessEnv = process.env): Promise<StateStores> {
  const url = config.state.url;
  if (url === undefined) return sqliteState(path.join(config.dataDir, 'state.db'), loadSealKey(config.dataDir, env));
  if (!env.SLUICE_SESSION_KEY) {
    throw new Error('state.url is set (shared state for several replicas), so SLUICE_SESSION_KEY must be too: 64 hexadecimal characters, the same on every replica (make one with: openssl rand -hex 32)');
  }
  return sharedState(url, config, loadSealKey(config.dataDir, env), log);
}

function sharedState(url: string, config: GatewayConfig, sealKey: Buffer, log: Logger): Promise<StateStores> {
  return redisState(url, {
    keyPrefix: config.state.keyPrefix,
    sealKey,
    onTrouble: ({ down, error, where }) =>
      down ? log.error({ redis: where, error }, 'shared state unreachable: calls that need it are refused until it is back') : log.info({ redis: where }, 'shared state reachable again'),
  });
}

/**
 * The token store for `sluice token create | list`: Redis when the state is shared (a token made on any
 * machine serves every replica), else the token file. `close` lets the CLI exit.
 */
export async function openTokenStore(config: GatewayConfig): Promise<{ tokens: TokenStore; where: string; close(): Promise<void> }> {
  const url = config.state.url;
  if (url === undefined) return { tokens: new FileTokenStore(config.security.tokensFile), where: config.security.tokensFile, close: async () => undefined };
  // Issuing and listing tokens seals nothing: any key will do.
  const state = await sharedState(url, config, randomBytes(32), silentLogger);
  if (!state.tokens) throw new Error('the shared state has no token store');
  return { tokens: state.tokens, where: 'the shared state (Redis)', close: () => state.close() };
}
