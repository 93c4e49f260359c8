/**
 * The audit log's write rate: records hashed, chained and committed to SQLite (WAL) with group commit.
 * "batched" is the gateway's situation under load — many calls in flight, each awaiting its own record;
 * "one at a time" is a single client calling sequentially (one transaction per record).
 *
 *   node --import tsx bench/audit.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuditLog, recordOf, SqliteAuditStore, type UnsealedRecord } from './sluice-internals.js';

export interface AuditFigure {
  mode: string;
  synchronous: 'normal' | 'full';
  records: number;
  perSecond: number;
}

/**
 * A typical allowed tools/call, through the same summarising (caps, hashes) the gateway uses; its result is
 * one the chokepoint's filters already passed, as for most calls (the audit then does not scan it twice).
 */
export function sample(i: number): UnsealedRecord {
  return recordOf(
    {
      time: new Date().toISOString(),
      agent: 'bench',
      session: 'session-1',
      transport: 'http',
      method: 'tools/call',
      target: 'files__read_text_file',
      upstream: 'files',
      outcome: 'allow',
      arguments: { path: `/srv/data/report-${i}.txt` },
      result: { content: [{ type: 'text', text: 'The quarterly numbers look fine. '.repeat(30) }] },
      resultClean: true,
      labelBefore: { integrity: 'trusted', confidentiality: 'public' },
      labelAfter: { integrity: 'untrusted', confidentiality: 'public' },
      durationMs: 0.42,
      traceId: `${i}`.padStart(32, '0'),
    },
    1024, // the default audit.maxFieldBytes
  );
}

async function run(mode: 'batched' | 'one at a time', synchronous: 'normal' | 'full', records: number): Promise<AuditFigure> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-audit-bench-'));
  const log = new AuditLog(new SqliteAuditStore(path.join(dir, 'audit.db'), { synchronous }));
  const inFlight = mode === 'batched' ? 256 : 1;
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < records) await log.write(sample(next++));
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  log.close();
  rmSync(dir, { recursive: true, force: true });
  return { mode, synchronous, records, perSecond: records / seconds };
}

export async function measureAudit(records = 50_000): Promise<AuditFigure[]> {
  const figures: AuditFigure[] = [];
  for (const synchronous of ['normal', 'full'] as const) {
    figures.push(await run('batched', synchronous, records));
    figures.push(await run('one at a time', synchronous, Math.min(records, 5_000)));
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureAudit(Number(process.env.BENCH_AUDIT_RECORDS ?? 50_000));
  console.log('| writes | synchronous | records | records/s |');
  console.log('| --- | --- | ---: | ---: |');
  for (const f of figures) console.log(`| ${f.mode} | ${f.synchronous} | ${f.records} | ${Math.round(f.perSecond).toLocaleString('en-US')} |`);
}
