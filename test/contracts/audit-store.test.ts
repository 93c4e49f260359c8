import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryAuditStore } from '../../src/audit/memory-store.js';
import { SqliteAuditStore } from '../../src/audit/sqlite-store.js';
import { auditStoreContract } from './audit-store.js';

auditStoreContract('memory', async () => new MemoryAuditStore());
auditStoreContract('sqlite', async () => new SqliteAuditStore(path.join(mkdtempSync(path.join(tmpdir(), 'sluice-audit-')), 'audit.db'), { busyTimeoutMs: 0 }));
