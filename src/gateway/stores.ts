import { SqliteAuditStore } from '../audit/sqlite-store.js';
import type { AuditStore } from '../audit/store.js';
import type { GatewayConfig } from '../config/schema.js';
import { FileTokenStore } from '../identity/tokens.js';

/**
 * The audit store the config names — Postgres at `audit.url`, else SQLite at `audit.file` — for the gateway
 * and for the CLI's `audit` commands alike (the CLI reads the same log, gateway running or not, and may wait
 * for a lock: it has nothing else to do). Async: a Postgres store connects and creates its tables first, and
 * rejects naming the server when it cannot.
 */
export async function auditStoreFor(config: GatewayConfig, options: { busyTimeoutMs?: number } = {}): Promise<AuditStore> {
  const settings = config.security.audit;
  if (settings.url) {
    // Loaded only when configured: `pg` stays out of the start-up of every gateway that does not use it.
    const { openPostgresAuditStore } = await import('../audit/postgres-store.js');
    return openPostgresAuditStore(settings.url);
  }
  return new SqliteAuditStore(settings.file, { synchronous: settings.synchronous, busyTimeoutMs: options.busyTimeoutMs });
}

/** The token store the config names, for the gateway and for `sluice token create | list`. */
export function tokenStoreFor(config: GatewayConfig): FileTokenStore {
  return new FileTokenStore(config.security.tokensFile);
}
