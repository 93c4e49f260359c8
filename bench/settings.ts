/**
 * What one bench run does, read from the environment so a run can be shortened or narrowed without editing
 * code (e.g. `BENCH_QUICK=1 npm run bench` for a smoke run, `BENCH_PATHS=sluice npm run bench` to profile).
 */

/**
 * `sluice` runs with security on (as shipped, with a realistic role and the audit log); `sluice-noaudit` the
 * same without the audit log; `sluice-open` with every check off; `sluice-oauth` like `sluice` with an OAuth
 * access token instead of a sluice token; `sluice-telemetry-off` like `sluice` without metrics, `sluice-traced` and
 * `sluice-traced-1pct` with metrics and OpenTelemetry traces sampled at 100% and 1%; `sluice-shared` like `sluice` on Redis and
 * Postgres; `sluice-cluster` three such replicas behind nginx. `sluice-baseline` is `sluice` run from another
 * build (`BENCH_BASELINE_CLI=/other/checkout/dist/cli/main.js`), for a before-and-after measured side by side;
 * it runs only when named in BENCH_PATHS.
 */
export const PATHS = ['stdio', 'raw-floor', 'sluice', 'sluice-baseline', 'sluice-noaudit', 'sluice-open', 'sluice-oauth', 'sluice-telemetry-off', 'sluice-traced', 'sluice-traced-1pct', 'sluice-shared', 'sluice-cluster', 'mcp-proxy', 'supergateway'] as const;
export type PathName = (typeof PATHS)[number];

export const CLIENT_KINDS = ['sdk', 'lean'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export interface Settings {
  quick: boolean;
  rounds: number;
  /** Timed calls per cell (one path × client kind × concurrency), shared out among the concurrent clients. */
  calls: number;
  /** Untimed calls before each cell: JIT, socket pools and the upstream settle first. */
  warmup: number;
  /**
   * Calls per cell of one untimed pass over every cell before the first round. Without it the first round
   * meets cold JITs in every process (the bench's own included) and whichever path runs first looks slow.
   */
  warmupRound: number;
  concurrency: number[];
  /** A cell stops early after this long, so the slow peers cannot stretch the run past a few minutes. */
  maxCellSeconds: number;
  paths: PathName[];
  clients: ClientKind[];
  /** Where to write the Markdown report; undefined means print only. */
  outFile: string | undefined;
  /** Calls of the in-process chokepoint measurement (bench/chokepoint.ts) for 1 KiB results; 0 skips it. */
  chokepointCalls: number;
  /** Extra node arguments for the sluice process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  sluiceNodeArgs: string[];
}

/**
 * A full run, about 5 minutes: 5 rounds rather than 3, because on a shared VM throughput swings by up to 2×
 * from one minute to the next, and more rounds give the medians more to work with.
 */
export const DEFAULTS = { rounds: 5, calls: 2000, warmup: 100, warmupRound: 300, maxCellSeconds: 3, chokepointCalls: 20_000 } as const;

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function list<T extends string>(name: string, allowed: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return [...allowed];
  const picked = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of picked) {
    if (!(allowed as readonly string[]).includes(p)) throw new Error(`${name}: unknown "${p}"; allowed: ${allowed.join(', ')}`);
  }
  return picked as T[];
}

export function readSettings(): Settings {
  const quick = process.env.BENCH_QUICK === '1';
  const concurrency = (process.env.BENCH_CONCURRENCY ?? '1,8,64').split(',').map((s) => Number(s.trim()));
  if (concurrency.some((c) => !Number.isInteger(c) || c < 1)) throw new Error('BENCH_CONCURRENCY must be a comma list of positive integers');
  const partial = ['BENCH_PATHS', 'BENCH_CLIENTS', 'BENCH_CONCURRENCY'].some((k) => process.env[k]);
  // Only a full run may replace the committed report; quick or narrowed runs print to stdout unless told otherwise.
  const outDefault = quick || partial ? '' : 'BENCHMARKS.md';
  const outFile = process.env.BENCH_OUT ?? outDefault;
  return {
    quick,
    rounds: int('BENCH_ROUNDS', quick ? 1 : DEFAULTS.rounds),
    calls: int('BENCH_CALLS', quick ? 300 : DEFAULTS.calls),
    warmup: int('BENCH_WARMUP', quick ? 50 : DEFAULTS.warmup),
    warmupRound: int('BENCH_WARMUP_ROUND', quick ? 100 : DEFAULTS.warmupRound),
    concurrency,
    maxCellSeconds: int('BENCH_MAX_SECONDS', quick ? 2 : DEFAULTS.maxCellSeconds),
    paths: process.env.BENCH_PATHS ? list('BENCH_PATHS', PATHS) : PATHS.filter((p) => p !== 'sluice-baseline'),
    clients: list('BENCH_CLIENTS', CLIENT_KINDS),
    chokepointCalls: int('BENCH_CHOKEPOINT_CALLS', quick ? 2000 : DEFAULTS.chokepointCalls),
    outFile: outFile === '' ? undefined : outFile,
    sluiceNodeArgs: (process.env.BENCH_SLUICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  };
}
