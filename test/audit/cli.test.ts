import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/audit/log.js';
import { HeadSigner } from '../../src/audit/signing.js';
import { SqliteAuditStore } from '../../src/audit/sqlite-store.js';
import { loadConfig } from '../../src/config/load.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

describe('sluice audit', () => {
  it('verifies, tails and exports with filters, and exits 1 naming the first broken record', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-audit-cli-'));
    const config = writeConfig(dir, 'mcpServers: {}\n');
    const file = loadConfig(config).security.audit.file;
    const log = new AuditLog(new SqliteAuditStore(file), { signer: HeadSigner.loadOrCreate(path.join(dir, '.sluice')) });
    for (let i = 1; i <= 6; i++) {
      await log.write({ time: `2026-11-0${i}T00:00:00.000Z`, kind: 'decision', agent: i % 2 ? 'alice' : 'bob', session: 's', transport: 'http', method: 'tools/call', target: `t${i}`, outcome: i === 3 ? 'deny' : 'allow' });
    }
    await log.close();
    const key = path.join(dir, '.sluice', 'audit-signing-key.pub.pem');

    expect((await runSluice(['audit', 'verify', '-c', config, '--key', key])).stdout).toMatch(/^OK: 6 records verified, 1 signed heads valid/);
    const exported = (await runSluice(['audit', 'export', '--format', 'jsonl', '--agent', 'alice', '-c', config])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { seq: number; agent: string });
    expect(exported.map((r) => r.seq)).toEqual([1, 3, 5]);
    const denied = (await runSluice(['audit', 'tail', '--outcome', 'deny', '-c', config])).stdout;
    expect(denied.trim().split('\n')).toEqual([expect.stringMatching(/^3 .* t3 +deny$/)]);
    const since = (await runSluice(['audit', 'tail', '-n', '2', '--since', '2026-11-02', '-c', config])).stdout.trim().split('\n');
    expect(since.map((l) => l.split(' ')[0])).toEqual(['5', '6']);

    const db = new Database(file);
    db.prepare("UPDATE audit SET body = replace(body, '\"t4\"', '\"t4-edited\"') WHERE seq = 4").run();
    db.close();
    const broken = await runSluice(['audit', 'verify', '-c', config]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^BROKEN at record 4: .*edited/);
  }, 60_000);
});
