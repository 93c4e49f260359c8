import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { UnsealedRecord } from '../../src/audit/chain.js';
import { AuditLog } from '../../src/audit/log.js';
import { HeadSigner } from '../../src/audit/signing.js';
import { SqliteAuditStore } from '../../src/audit/sqlite-store.js';
import { verifyStore } from '../../src/audit/verify.js';

function fresh(): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-audit-'));
  return { dir, file: path.join(dir, 'audit.db') };
}

const record = (i: number): UnsealedRecord => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  kind: 'decision',
  agent: i % 2 ? 'alice' : 'bob',
  session: 's1',
  transport: 'http',
  method: 'tools/call',
  target: 'files__read_text_file',
  outcome: i % 3 ? 'allow' : 'deny',
  arguments: JSON.stringify({ path: `/tmp/${i}` }),
});

async function filled(n = 10): Promise<{ dir: string; file: string; log: AuditLog }> {
  const { dir, file } = fresh();
  const log = new AuditLog(new SqliteAuditStore(file), { signer: HeadSigner.loadOrCreate(dir) });
  await Promise.all(Array.from({ length: n }, (_, i) => log.write(record(i + 1))));
  return { dir, file, log };
}

/** Raw SQL on the file, as an attacker with write access would do it. */
function tamper(file: string, sql: string, ...args: unknown[]): void {
  const db = new Database(file);
  db.prepare(sql).run(...args);
  db.close();
}

async function verify(file: string, key?: string) {
  const store = new SqliteAuditStore(file);
  try {
    return await verifyStore(store, key);
  } finally {
    await store.close();
  }
}

describe('the audit chain', () => {
  it('verifies an untouched log, batched writes included', async () => {
    const { file, log } = await filled(25);
    await log.close();
    expect(await verify(file)).toMatchObject({ ok: true, checked: 25 });
  });

  it('names the first broken record for an edited field', async () => {
    const { file, log } = await filled();
    await log.close();
    const db = new Database(file);
    const row = db.prepare('SELECT body FROM audit WHERE seq = 4').get() as { body: string };
    db.close();
    expect(row.body).toContain('"outcome":"allow"');
    tamper(file, "UPDATE audit SET body = ?, outcome = 'deny' WHERE seq = 4", row.body.replace('"outcome":"allow"', '"outcome":"deny"'));
    expect(await verify(file)).toMatchObject({ ok: false, brokenAt: 4, reason: expect.stringMatching(/edited/) });
  });

  it('notices a searchable column edited without the record', async () => {
    const { file, log } = await filled();
    await log.close();
    tamper(file, "UPDATE audit SET agent = 'nobody' WHERE seq = 7");
    expect(await verify(file)).toMatchObject({ ok: false, brokenAt: 7, reason: expect.stringMatching(/columns/) });
  });

  it('verifies a log written before columns replaced NUL (SQLite kept it as it is), and still catches an edit there', async () => {
    const { file } = fresh();
    const log = new AuditLog(new SqliteAuditStore(file));
    await log.write({ ...record(1), agent: 'nul\0agent' });
    await log.close();
    tamper(file, 'UPDATE audit SET agent = ? WHERE seq = 1', 'nul\0agent');
    expect(await verify(file)).toMatchObject({ ok: true, checked: 1 });
    tamper(file, 'UPDATE audit SET agent = ? WHERE seq = 1', 'nul\0other');
    expect(await verify(file)).toMatchObject({ ok: false, brokenAt: 1, reason: expect.stringMatching(/columns/) });
  });

  it('detects a deleted, an inserted and a reordered record', async () => {
    for (const attack of ['delete', 'insert', 'reorder'] as const) {
      const { file, log } = await filled();
      await log.close();
      if (attack === 'delete') tamper(file, 'DELETE FROM audit WHERE seq = 5');
      if (attack === 'insert') {
        const db = new Database(file);
        const row = db.prepare('SELECT * FROM audit WHERE seq = 3').get() as Record<string, unknown>;
        db.close();
        tamper(file, 'UPDATE audit SET seq = seq + 100 WHERE seq > 3');
        tamper(file, 'INSERT INTO audit (seq, time, agent, target, outcome, prev_hash, hash, body) VALUES (4, ?, ?, ?, ?, ?, ?, ?)', row.time, row.agent, row.target, row.outcome, row.prev_hash, row.hash, row.body);
      }
      if (attack === 'reorder') {
        tamper(file, 'UPDATE audit SET seq = -1 WHERE seq = 6');
        tamper(file, 'UPDATE audit SET seq = 6 WHERE seq = 7');
        tamper(file, 'UPDATE audit SET seq = 7 WHERE seq = -1');
      }
      const result = await verify(file);
      expect(result.ok, attack).toBe(false);
      expect((result as { brokenAt: number }).brokenAt, attack).toBe(attack === 'delete' ? 6 : attack === 'insert' ? 4 : 6);
    }
  });

  it('catches a full rewrite only with the signing key: every hash recomputed, signatures cannot be', async () => {
    const { dir, file, log } = await filled();
    await log.close();
    const key = HeadSigner.loadOrCreate(dir).publicKeyPem;
    expect(await verify(file, key)).toMatchObject({ ok: true, signaturesChecked: 1 });
    // Rewrite history with sluice's own code, as an attacker with the code but not the key would.
    const db = new Database(file);
    const rows = db.prepare('SELECT body FROM audit ORDER BY seq').all() as { body: string }[];
    db.close();
    tamper(file, 'DELETE FROM audit');
    const forger = new SqliteAuditStore(file);
    await forger.append(rows.map((r) => ({ ...(JSON.parse(r.body) as UnsealedRecord), outcome: 'allow' })));
    await forger.close();
    expect(await verify(file)).toMatchObject({ ok: true }); // the chain alone is consistent again...
    expect(await verify(file, key)).toMatchObject({ ok: false, reason: expect.stringMatching(/rewritten/) }); // ...the signature is not
    tamper(file, 'DELETE FROM audit_signatures');
    // With no signature left, nothing vouches for any record: all of them are the unsigned tail.
    expect(await verify(file, key)).toMatchObject({ ok: true, signaturesChecked: 0, unsignedTail: 10, lastSignedSeq: 0 });
  });

  it('keeps the chain verifiable after retention pruning, and refuses a forged anchor', async () => {
    const { file, log } = await filled(10);
    const now = Date.now();
    // Records 1-10 are dated 2026-01-01; prune everything older than a day.
    const removed = await log.pruneOlderThan(now - Date.UTC(2026, 0, 2));
    expect(removed).toBe(10);
    await log.write(record(11));
    await log.close();
    expect(await verify(file)).toMatchObject({ ok: true, checked: 2, anchorSeq: 10 });
    tamper(file, 'UPDATE audit_anchor SET seq = 11, hash = (SELECT hash FROM audit WHERE seq = 11)');
    tamper(file, 'DELETE FROM audit WHERE seq = 11');
    expect(await verify(file)).toMatchObject({ ok: false, reason: expect.stringMatching(/no anchor record/) });
  });

  it('never forks when several writers share one file', async () => {
    const { file } = fresh();
    const logs = Array.from({ length: 3 }, () => new AuditLog(new SqliteAuditStore(file)));
    await Promise.all(logs.flatMap((log, w) => Array.from({ length: 50 }, (_, i) => log.write({ ...record(i), agent: `writer-${w}` }))));
    for (const log of logs) await log.close();
    expect(await verify(file)).toMatchObject({ ok: true, checked: 150 });
  });
});

describe('resumed verification', () => {
  it('checks only what came after a verified point, and still catches breaks there', async () => {
    const { file, log } = await filled(5);
    const store = new SqliteAuditStore(file);
    const first = await verifyStore(store);
    expect(first).toMatchObject({ ok: true, checked: 5 });
    const head = await store.head();
    await log.write(record(6));
    await log.write(record(7));
    expect(await verifyStore(store, undefined, { ...head, checked: 5 })).toMatchObject({ ok: true, checked: 7 });
    tamper(file, "UPDATE audit SET body = replace(body, 'bob', 'eve') WHERE seq = 6");
    expect(await verifyStore(store, undefined, { ...head, checked: 5 })).toMatchObject({ ok: false, brokenAt: 6 });
    await store.close();
    await log.close();
  });
});
