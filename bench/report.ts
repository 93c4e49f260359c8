import type { ChokepointFigure } from './chokepoint.js';
import type { Run } from './measure.js';
import type { ClientKind, PathName } from './settings.js';
import { median, percentile, pooledSorted } from './stats.js';

/** Every round's run of one cell (path × client kind × concurrency); runs[r] is round r. */
export interface Cell {
  path: PathName;
  kind: ClientKind;
  concurrency: number;
  runs: Run[];
}

/** One cell reduced to the figures the tables show. */
export interface Summary {
  path: PathName;
  kind: ClientKind;
  concurrency: number;
  /** calls/s of each round, in round order (ratios are taken round by round). */
  rates: number[];
  /** Median over rounds of calls per second. */
  rate: number;
  /** Percentiles over every call of every round, in ms. */
  p50: number;
  p99: number;
  /** Calls measured over all rounds (what the percentiles rest on). */
  calls: number;
  /** CPU per call over all rounds, in µs. */
  cpuUs: { client: number; gateway: number; upstream: number };
}

export const PATH_LABELS: Record<PathName, string> = {
  stdio: 'server-everything over stdio, no gateway',
  'raw-floor': 'raw floor: bare node:http, no MCP library',
  sluice: 'sluice, security on (HTTP → stdio)',
  'sluice-baseline': 'sluice, security on, baseline build (HTTP → stdio)',
  'sluice-noaudit': 'sluice, security on, audit log off (HTTP → stdio)',
  'sluice-open': 'sluice, security off (HTTP → stdio)',
  'sluice-oauth': 'sluice, security on, OAuth access token (HTTP → stdio)',
  'sluice-telemetry-off': 'sluice, security on, metrics off (HTTP → stdio)',
  'sluice-traced': 'sluice, security on, metrics + traces sampled 100% (HTTP → stdio)',
  'sluice-traced-1pct': 'sluice, security on, metrics + traces sampled 1% (HTTP → stdio)',
  'sluice-shared': 'sluice, security on, on Redis + Postgres (one replica)',
  'sluice-cluster': 'sluice, security on, 3 replicas on Redis + Postgres behind nginx',
  'mcp-proxy': 'mcp-proxy (HTTP → stdio)',
  supergateway: 'supergateway --stateful (HTTP → stdio)',
};

export const KIND_LABELS: Record<ClientKind, string> = {
  sdk: 'official SDK v2 client',
  lean: 'lean client (node:http keep-alive; raw JSON lines on stdio)',
};

export function summarize(cells: Cell[]): Summary[] {
  return cells.map((c) => {
    const sorted = pooledSorted(c.runs.map((r) => r.latenciesMs));
    const rates = c.runs.map((r) => r.calls / r.seconds);
    const per = (key: keyof Run['cpuNs']) => c.runs.reduce((n, r) => n + r.cpuNs[key], 0) / sorted.length / 1000;
    return {
      path: c.path,
      kind: c.kind,
      concurrency: c.concurrency,
      rates,
      rate: median(rates),
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      calls: sorted.length,
      cpuUs: { client: per('client'), gateway: per('gateway'), upstream: per('upstream') },
    };
  });
}

function find(s: Summary[], path: PathName, kind: ClientKind, concurrency: number): Summary | undefined {
  return s.find((x) => x.path === path && x.kind === kind && x.concurrency === concurrency);
}

const rate = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const us = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US'));

/** One row per path measured with `kind`, one column group per concurrency. */
function perPathTable(s: Summary[], kind: ClientKind, paths: PathName[], concurrency: number[], columns: string[], cells: (x: Summary) => string[]): string {
  const head = ['path', ...concurrency.flatMap((c) => columns.map((col, i) => (i === 0 ? `c=${c} ${col}` : col)))];
  const rows = paths
    .filter((p) => concurrency.some((c) => find(s, p, kind, c)))
    .map((p) => [
      PATH_LABELS[p],
      ...concurrency.flatMap((c) => {
        const x = find(s, p, kind, c);
        return x ? cells(x) : columns.map(() => '—');
      }),
    ]);
  return markdownTable(head, rows, [false, ...concurrency.flatMap(() => columns.map(() => true))]);
}

/** calls/s, p50 and p99 for every path measured with one client kind. */
export function resultsTable(s: Summary[], kind: ClientKind, paths: PathName[], concurrency: number[]): string {
  return perPathTable(s, kind, paths, concurrency, ['calls/s', 'p50 ms', 'p99 ms'], (x) => [rate(x.rate), ms(x.p50), ms(x.p99)]);
}

/** CPU µs per call: in the gateway process, in the server-everything process(es), and in the client (this process). */
export function cpuTable(s: Summary[], kind: ClientKind, paths: PathName[], concurrency: number[]): string {
  return perPathTable(s, kind, paths, concurrency, ['gateway', 'server', 'client'], (x) =>
    [x.path === 'stdio' ? '—' : us(x.cpuUs.gateway), x.path === 'raw-floor' ? '—' : us(x.cpuUs.upstream), us(x.cpuUs.client)],
  );
}

/**
 * A ratio's operands: a measured path, or `ceiling`: the fastest any HTTP → stdio gateway could be if it did
 * nothing but one bare HTTP exchange (the raw floor) and one bare stdio exchange (direct stdio), computed per
 * round as 1 / (1/floor + 1/stdio). It tells whether an aim is reachable on this machine at all.
 */
type Operand = PathName | 'ceiling';

interface RatioSpec {
  kind: ClientKind;
  of: Operand;
  to: Operand;
  /**
   * The aim, as a minimum ratio: at every concurrency (a number), or at the concurrencies named (a map,
   * `{ 1: 0.7, 8: 0.9 }`); undefined for context-only ratios.
   */
  aim?: number | Readonly<Record<number, number>>;
  /** What to call the two operands in this row, when their short names would not say it. */
  names?: [string, string];
}

const RATIOS: RatioSpec[] = [
  { kind: 'lean', of: 'sluice', to: 'sluice-baseline', names: ['this build', 'baseline build'] },
  { kind: 'sdk', of: 'sluice', to: 'sluice-baseline', names: ['this build', 'baseline build'] },
  { kind: 'lean', of: 'sluice', to: 'mcp-proxy', aim: 5 },
  { kind: 'lean', of: 'sluice', to: 'supergateway', aim: 5 },
  { kind: 'lean', of: 'sluice', to: 'raw-floor' },
  { kind: 'lean', of: 'sluice', to: 'ceiling', aim: { 1: 0.6 } },
  { kind: 'lean', of: 'ceiling', to: 'mcp-proxy' },
  { kind: 'lean', of: 'ceiling', to: 'supergateway' },
  { kind: 'lean', of: 'sluice', to: 'sluice-open', aim: 0.9, names: ['sluice on', 'sluice off'] },
  { kind: 'lean', of: 'sluice', to: 'sluice-noaudit', aim: 0.9, names: ['audit on', 'audit off'] },
  { kind: 'sdk', of: 'sluice', to: 'raw-floor', aim: { 1: 0.7, 8: 0.9 } },
  { kind: 'sdk', of: 'sluice', to: 'mcp-proxy', aim: 3 },
  { kind: 'sdk', of: 'sluice', to: 'supergateway', aim: 3 },
  { kind: 'sdk', of: 'sluice', to: 'sluice-open', aim: 0.9, names: ['sluice on', 'sluice off'] },
  { kind: 'sdk', of: 'sluice', to: 'sluice-noaudit', aim: 0.9, names: ['audit on', 'audit off'] },
  { kind: 'lean', of: 'sluice-traced-1pct', to: 'sluice-telemetry-off', aim: 0.95, names: ['metrics + traces 1%', 'telemetry off'] },
  { kind: 'sdk', of: 'sluice-traced-1pct', to: 'sluice-telemetry-off', aim: 0.95, names: ['metrics + traces 1%', 'telemetry off'] },
  { kind: 'lean', of: 'sluice-traced', to: 'sluice-telemetry-off', names: ['metrics + traces 100%', 'telemetry off'] },
  { kind: 'sdk', of: 'sluice-traced', to: 'sluice-telemetry-off', names: ['metrics + traces 100%', 'telemetry off'] },
  { kind: 'lean', of: 'sluice', to: 'sluice-telemetry-off', names: ['metrics on', 'telemetry off'] },
  { kind: 'lean', of: 'sluice-oauth', to: 'sluice', aim: 0.95, names: ['OAuth token', 'sluice token'] },
  { kind: 'sdk', of: 'sluice-oauth', to: 'sluice', aim: 0.95, names: ['OAuth token', 'sluice token'] },
  { kind: 'lean', of: 'sluice-shared', to: 'sluice', aim: 0.8, names: ['Redis + Postgres', 'embedded'] },
  { kind: 'sdk', of: 'sluice-shared', to: 'sluice', aim: 0.8, names: ['Redis + Postgres', 'embedded'] },
  { kind: 'lean', of: 'sluice-cluster', to: 'sluice', names: ['3 replicas + nginx', 'embedded'] },
  { kind: 'sdk', of: 'sluice-cluster', to: 'sluice', names: ['3 replicas + nginx', 'embedded'] },
];

const SHORT: Record<Operand, string> = {
  stdio: 'direct stdio',
  'raw-floor': 'raw floor',
  sluice: 'sluice',
  'sluice-baseline': 'baseline build',
  'sluice-noaudit': 'sluice, audit off',
  'sluice-open': 'sluice off',
  'sluice-oauth': 'sluice with OAuth',
  'sluice-telemetry-off': 'telemetry off',
  'sluice-traced': 'traces 100%',
  'sluice-traced-1pct': 'traces 1%',
  'sluice-shared': 'sluice on Redis + Postgres',
  'sluice-cluster': 'sluice ×3 + nginx',
  'mcp-proxy': 'mcp-proxy',
  supergateway: 'supergateway',
  ceiling: 'ceiling',
};

function ratesOf(s: Summary[], op: Operand, kind: ClientKind, c: number): number[] | undefined {
  if (op !== 'ceiling') return find(s, op, kind, c)?.rates;
  const floor = find(s, 'raw-floor', kind, c)?.rates;
  const stdio = find(s, 'stdio', kind, c)?.rates;
  return floor && stdio ? floor.map((f, r) => 1 / (1 / f + 1 / stdio[r])) : undefined;
}

/**
 * The median of the round-by-round ratios. Both operands of a round were measured seconds apart, so host
 * noise that slows a whole stretch of the run cancels out, which a ratio of the medians would not do.
 */
function ratioAt(s: Summary[], spec: RatioSpec, c: number): number | undefined {
  const a = ratesOf(s, spec.of, spec.kind, c);
  const b = ratesOf(s, spec.to, spec.kind, c);
  if (!a || !b) return undefined;
  return median(a.map((x, r) => x / b[r]).filter((x) => Number.isFinite(x)));
}

const namesOf = (spec: RatioSpec): [string, string] => spec.names ?? [SHORT[spec.of], SHORT[spec.to]];

function ratioText(r: number): string {
  return r < 1 ? `${r.toFixed(2)}× (${(r * 100).toFixed(1)}%)` : `${r.toFixed(2)}×`;
}

const bound = (aim: number) => (aim < 1 ? `≥ ${Math.round(aim * 100)}%` : `≥ ${aim}×`);

/** The aim at concurrency `c`, if the spec has one there. */
function aimAt(spec: RatioSpec, c: number): number | undefined {
  return typeof spec.aim === 'number' ? spec.aim : spec.aim?.[c];
}

function aimText(spec: RatioSpec): string {
  if (typeof spec.aim === 'number') return bound(spec.aim);
  return Object.entries(spec.aim ?? {})
    .map(([c, aim]) => `${bound(aim)} at c=${c}`)
    .join(', ');
}

/** Met when every concurrency the aim names was measured and reached it. */
function aimMet(spec: RatioSpec, s: Summary[], concurrency: number[]): boolean | undefined {
  const named = typeof spec.aim === 'number' ? concurrency : Object.keys(spec.aim ?? {}).map(Number);
  if (named.some((c) => !concurrency.includes(c) || ratioAt(s, spec, c) === undefined)) return undefined;
  return named.every((c) => ratioAt(s, spec, c)! >= aimAt(spec, c)!);
}

const verdict = (met: boolean | undefined) => (met === undefined ? '· not measured' : met ? '✅ met' : '❌ missed');

/** Calls/s ratios between paths, per concurrency; the rows that carry an aim say whether it was met. */
export function ratioTable(s: Summary[], concurrency: number[]): string {
  const head = ['calls/s ratio (median of per-round ratios)', ...concurrency.map((c) => `c=${c}`), 'aim'];
  const rows = RATIOS.filter((spec) => concurrency.some((c) => ratioAt(s, spec, c) !== undefined)).map((spec) => {
    const values = concurrency.map((c) => ratioAt(s, spec, c));
    const aim = spec.aim === undefined ? '' : `${aimText(spec)} ${verdict(aimMet(spec, s, concurrency))}`;
    const [of, to] = namesOf(spec);
    return [`${spec.kind}: ${of} ÷ ${to}`, ...values.map((v) => (v === undefined ? '—' : ratioText(v))), aim];
  });
  return markdownTable(head, rows, [false, ...concurrency.map(() => true), false]);
}

/**
 * How many times more CPU per call each peer's gateway process burns than sluice's with security on (servers
 * and client left out). The steadiest comparison of the gateways' own cost: it hardly moves with the host's
 * load. The `sluice off` row is what sluice costs with every security check off, relative to on.
 */
export function cpuRatioTable(s: Summary[], kind: ClientKind, concurrency: number[]): string {
  const head = [`gateway CPU per call, ${kind} client`, ...concurrency.map((c) => `c=${c}`)];
  const rows = (['sluice-baseline', 'mcp-proxy', 'supergateway', 'raw-floor', 'sluice-open'] as const)
    .map((peer) => [
      `${SHORT[peer]} ÷ sluice${peer === 'sluice-open' ? ' on' : ''}`,
      ...concurrency.map((c) => {
        const a = find(s, peer, kind, c);
        const b = find(s, 'sluice', kind, c);
        return a && b && b.cpuUs.gateway > 0 ? `${(a.cpuUs.gateway / b.cpuUs.gateway).toFixed(2)}×` : '—';
      }),
    ])
    .filter((row) => row.slice(1).some((v) => v !== '—'));
  return markdownTable(head, rows, [false, ...concurrency.map(() => true)]);
}

/** One aim of the issue, checked at every concurrency measured. */
export interface AimResult {
  text: string;
  /** undefined when a cell it needs was not measured in this run. */
  met: boolean | undefined;
}

export function checkAims(s: Summary[], concurrency: number[], chokepoint: ChokepointFigure[] | undefined): AimResult[] {
  const ratios = RATIOS.filter((spec) => spec.aim !== undefined).map((spec) => {
    const [of, to] = namesOf(spec);
    const where = typeof spec.aim === 'number' ? ' at every concurrency' : '';
    const text = `${spec.kind} client: ${of} ${aimText(spec)} of ${to}'s calls/s${where}`;
    const met = aimMet(spec, s, concurrency);
    if (met === undefined) return { text, met };
    const shown = concurrency.map((c) => `c=${c} ${ratioText(ratioAt(s, spec, c)!)}`).join(', ');
    return { text: `${text} (${shown})`, met };
  });
  const choke = CHOKEPOINT_AIMS.map((aim): AimResult => {
    const one = chokepoint?.find((f) => f.size === aim.size);
    const text = `chokepoint cost ≤ ${aim.us} µs per call on ${aim.size} results, in process with the default filters`;
    return one ? { text: `${text} (${usPerCall(one.usPerCall)} µs)`, met: one.usPerCall <= aim.us } : { text, met: undefined };
  });
  return [...ratios, latencyAim(s), ...choke];
}

/** The lean client's median latency through sluice at c=1, at most half a millisecond above direct stdio's. */
function latencyAim(s: Summary[]): AimResult {
  const text = 'lean client: sluice p50 ≤ direct stdio p50 + 0.5 ms at c=1';
  const direct = find(s, 'stdio', 'lean', 1);
  const through = find(s, 'sluice', 'lean', 1);
  if (!direct || !through) return { text, met: undefined };
  return { text: `${text} (${ms(through.p50)} ms against ${ms(direct.p50)} ms)`, met: through.p50 <= direct.p50 + 0.5 };
}

/** The aims for the chokepoint's own cost, measured in process by bench/chokepoint.ts. */
export const CHOKEPOINT_AIMS = [
  { size: '1 KiB', us: 20 },
  { size: '64 KiB', us: 250 },
] as const;

const usPerCall = (n: number) => (n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US'));

const aimFor = (size: string) => CHOKEPOINT_AIMS.find((a) => a.size === size);

/** The chokepoint's cost per tools/call in process, per result size, next to a bare await of the same result. */
export function chokepointTable(figures: ChokepointFigure[]): string {
  const head = ['result size', 'calls', 'chokepoint µs/call', 'bare await µs/call', 'aim'];
  const rows = figures.map((f) => {
    const aim = aimFor(f.size);
    return [f.size, f.calls.toLocaleString('en-US'), usPerCall(f.usPerCall), f.baselineUsPerCall.toFixed(2), aim ? `≤ ${aim.us} µs ${verdict(f.usPerCall <= aim.us)}` : ''];
  });
  return markdownTable(head, rows, [false, true, true, true, false]);
}

function markdownTable(head: string[], rows: string[][], right: boolean[]): string {
  const align = right.map((r) => (r ? '---:' : ':---'));
  return [head, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
