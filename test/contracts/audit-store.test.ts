import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { MemoryAuditStore } from '../../src/audit/memory-store.js';
import { openPostgresAuditStore } from '../../src/audit/postgres-store.js';
import { SqliteAuditStore } from '../../src/audit/sqlite-store.js';
import { freshDatabase, startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { auditStoreContract } from './audit-store.js';

auditStoreContract('memory', async () => new MemoryAuditStore());
auditStoreContract('sqlite', async () => new SqliteAuditStore(path.join(mkdtempSync(path.join(tmpdir(), 'sluice-audit-')), 'audit.db'), { busyTimeoutMs: 0 }));

// One server for the file; each test gets a database of its own on it.
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});
auditStoreContract('postgres', async () => openPostgresAuditStore(await freshDatabase(server.url)));
