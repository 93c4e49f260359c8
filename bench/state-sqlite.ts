/**
 * What the embedded state store's per-request operations cost, in µs each: the label reads and raises every
 * checked call makes, a rate-limit take, and the legacy-session record a request reads and touches. One
 * process, one file in a temp dir, nothing else running in it.
 *
 *   npx tsc -p . && node --import tsx bench/state-sqlite.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sqliteState } from './sluice-internals.js';

export interface StateFigure {
  operation: string;
  calls: number;
  usPerCall: number;
}

type Op = (i: number) => Promise<unknown>;

const ROUNDS = 10;

/** The fastest of ROUNDS rounds, each a share of `calls`: other work on the machine only ever slows a round down. */
async function time(calls: number, op: Op): Promise<number> {
  for (let i = 0; i < Math.min(1000, calls); i++) await op(i); // warm up
  const perRound = Math.ceil(calls / ROUNDS);
  const rounds: number[] = [];
  for (let r = 0, i = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (const end = i + perRound; i < end; i++) await op(i);
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
  }
  return Math.min(...rounds);
}

export async function measureSqliteState(calls = 21_000): Promise<StateFigure[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-bench-state-'));
  const state = sqliteState(path.join(dir, 'state.db'), randomBytes(32));
  const holder = { id: 's1', agent: 'alice', stateless: false };
  const seen = { integrity: 'trusted', confidentiality: 'public' } as const;
  const bucket = { key: 'agent:alice', bucket: { perSecond: 1e9, burst: 1e9 } };
  const record = { id: 'sid', owner: 'o', agent: 'alice', via: 'token', transport: 'http', protocolVersion: '2025-06-18', clientCapabilities: {} } as const;
  await state.sessions.put('sid', record, 60_000);
  let fresh = 0;
  const ops: [string, Op][] = [
    ['labels.of (a known session)', () => state.labels.of(holder)],
    ['labels.raise (nothing rises)', () => state.labels.raise(holder, seen)],
    // A new session of a new agent each time: the write transaction every real rise takes.
    ['labels.raise (a rise: write)', () => state.labels.raise({ id: `n${fresh}`, agent: `a${fresh++}`, stateless: false }, { integrity: 'untrusted', confidentiality: 'pii' })],
    ['limits.take (one bucket)', () => state.limits.take([bucket])],
    ['sessions.get', () => state.sessions.get('sid')],
    ['sessions.touch', () => state.sessions.touch('sid', 60_000)],
    ['sessions.put', (i) => state.sessions.put(`k${i % 1000}`, record, 60_000)],
    ['approvals.grants (none)', () => state.approvals.grants('alice', 'files__write')],
  ];
  const figures: StateFigure[] = [];
  for (const [operation, op] of ops) figures.push({ operation, calls, usPerCall: await time(calls, op) });
  await state.close();
  rmSync(dir, { recursive: true, force: true });
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureSqliteState(Number(process.env.BENCH_CALLS ?? 21_000));
  console.log('| operation | calls | µs/call |');
  console.log('| --- | ---: | ---: |');
  for (const f of figures) console.log(`| ${f.operation} | ${f.calls} | ${f.usPerCall.toFixed(2)} |`);
}
