/**
 * `npm run bench`: echo calls on server-everything directly over stdio, through sluice (security on and
 * off), mcp-proxy and supergateway, and against a raw node:http floor; with the SDK client and a lean client;
 * at each concurrency; interleaved over several rounds. First, on a quiet machine, the chokepoint's own cost
 * in process (bench/chokepoint.ts). Prints Markdown tables and (on a full run) writes BENCHMARKS.md.
 * Settings: see settings.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { measureAudit } from './audit.js';
import { catalogSearchAims, catalogSearchSection, measureCatalogSearch } from './catalog-search.js';
import { measureCatalogTokens } from './catalog-tokens.js';
import { definitionScanAims, definitionScanSection, measureDefinitionScan } from './definition-scan.js';
import { measureChokepoint, type ChokepointFigure } from './chokepoint.js';
import { auditAims, authAims, catalogAims, extraSections, startupAims } from './more-aims.js';
import { measureAuth } from './oauth.js';
import { stopOtlpSink } from './otlp-sink.js';
import { measureStartup } from './startup.js';
import { renderDocument } from './document.js';
import type { HttpTarget } from './http-target.js';
import { describeMachine } from './machine.js';
import { measure, type Run } from './measure.js';
import { ROOT } from './paths.js';
import { openPool, type Pool } from './pools.js';
import { stopAll } from './processes.js';
import { checkAims, chokepointTable, cpuRatioTable, cpuTable, KIND_LABELS, ratioTable, resultsTable, summarize, type Cell } from './report.js';
import { readSettings, type ClientKind, type PathName, type Settings } from './settings.js';
import { percentile } from './stats.js';
import { startTarget } from './targets.js';

/** Hand-written notes below this line of BENCHMARKS.md (before/after comparisons) survive a re-run. */
const KEEP = '<!-- Hand-written below: npm run bench keeps everything after this line. -->';

function keptNotes(file: string): string {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(KEEP);
  return at === -1 ? '' : `\n${text.slice(at)}`;
}

interface Unit {
  path: PathName;
  kind: ClientKind;
}

const unitKey = (u: Unit) => `${u.path}/${u.kind}`;

/**
 * The order of the paths for one round and concurrency: every round starts at a different place, so slow
 * drift on the machine (host load, a growing heap) spreads over all paths instead of landing on one.
 */
function rotate(units: Unit[], round: number, rounds: number, level: number): Unit[] {
  const shift = (round * Math.ceil(units.length / rounds) + level) % units.length;
  return [...units.slice(shift), ...units.slice(0, shift)];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Every session stays open for the whole run, so the cells can be interleaved finely (all paths at one
 * concurrency, then the next) without paying supergateway's 64 process spawns again and again.
 */
async function openPools(settings: Settings, targets: Map<PathName, HttpTarget>, units: Unit[], pools: Map<string, Pool>): Promise<void> {
  const size = Math.max(...settings.concurrency);
  for (const unit of units) {
    pools.set(unitKey(unit), await openPool(unit.path, unit.kind, targets.get(unit.path), size));
    log(`opened ${size} ${unit.kind} session(s) on ${unit.path}`);
  }
}

async function runCell(settings: Settings, pool: Pool, c: number, calls: number): Promise<Run> {
  await measure(pool.clients, c, settings.warmup, settings.maxCellSeconds, () => ({ gateway: 0, upstream: 0 }));
  return measure(pool.clients, c, calls, settings.maxCellSeconds, () => pool.cpu());
}

async function runRounds(settings: Settings, units: Unit[], pools: Map<string, Pool>): Promise<Cell[]> {
  if (settings.warmupRound > 0) {
    log(`warm-up pass: ${settings.warmupRound} calls per cell, not recorded`);
    for (const c of settings.concurrency) for (const unit of units) await runCell(settings, pools.get(unitKey(unit))!, c, settings.warmupRound);
  }
  const cells = new Map<string, Cell>();
  for (let round = 0; round < settings.rounds; round++) {
    for (const [level, c] of settings.concurrency.entries()) {
      for (const unit of rotate(units, round, settings.rounds, level)) {
        const run = await runCell(settings, pools.get(unitKey(unit))!, c, settings.calls);
        const key = `${unitKey(unit)}/${c}`;
        const cell = cells.get(key) ?? { path: unit.path, kind: unit.kind, concurrency: c, runs: [] };
        cell.runs.push(run);
        cells.set(key, cell);
        const sorted = run.latenciesMs.slice().sort();
        log(
          `round ${round + 1}/${settings.rounds}  c=${String(c).padEnd(3)} ${unit.path.padEnd(12)} ${unit.kind.padEnd(4)} ` +
            `${Math.round(run.calls / run.seconds).toString().padStart(6)} calls/s  p50 ${percentile(sorted, 50).toFixed(2)} ms  ` +
            `gateway ${Math.round(run.cpuNs.gateway / run.calls / 1000)} µs/call  (${run.calls} calls)`,
        );
      }
    }
  }
  return [...cells.values()];
}

async function main(): Promise<void> {
  const settings = readSettings();
  const started = new Date();
  log(`bench: ${settings.rounds} round(s), ${settings.calls} calls per cell (+${settings.warmup} warm-up, at most ${settings.maxCellSeconds} s), concurrency ${settings.concurrency.join('/')}`);
  // Before any target starts, so nothing else competes for the cores while it runs.
  let chokepoint: ChokepointFigure[] | undefined;
  if (settings.chokepointCalls > 0) {
    chokepoint = await measureChokepoint(settings.chokepointCalls);
    log(`chokepoint in process: ${chokepoint.map((f) => `${f.size} ${f.usPerCall.toFixed(1)} µs/call`).join(', ')}`);
  }
  // The audit log's write rate and the agent's prompt sizes, also before any target competes for the cores.
  const audit = settings.chokepointCalls > 0 ? await measureAudit() : undefined;
  if (audit) log(`audit log: ${audit.map((f) => `${f.mode}/${f.synchronous} ${Math.round(f.perSecond)}/s`).join(', ')}`);
  const catalog = settings.chokepointCalls > 0 ? await measureCatalogTokens() : undefined;
  const search = settings.chokepointCalls > 0 ? measureCatalogSearch() : undefined;
  const definitions = settings.chokepointCalls > 0 ? await measureDefinitionScan() : undefined;
  if (search) log(`catalog search: top-3 ${(search.rates[0].top3 * 100).toFixed(1)}%, ${search.latency.medianMs.toFixed(2)} ms at ${search.latency.entries} entries`);
  const startup = settings.chokepointCalls > 0 ? await measureStartup() : undefined;
  const auth = settings.chokepointCalls > 0 ? await measureAuth() : undefined;
  if (auth) log(`authentication: ${auth.map((f) => `${f.what} ${f.usPerCall.toFixed(1)} µs`).join(', ')}`);
  const targets = new Map<PathName, HttpTarget>();
  const pools = new Map<string, Pool>();
  try {
    for (const p of settings.paths) {
      if (p === 'stdio') continue;
      const target = await startTarget(p, settings);
      targets.set(p, target);
      log(`started ${p} at ${target.url}`);
    }
    const units = settings.paths.flatMap((p) => settings.clients.map((kind): Unit => ({ path: p, kind })));
    await openPools(settings, targets, units, pools);
    const cells = await runRounds(settings, units, pools);
    const seconds = (Date.now() - started.getTime()) / 1000;
    const summaries = summarize(cells);
    const tables = settings.clients.map((kind) => `### ${KIND_LABELS[kind]}\n\n${resultsTable(summaries, kind, settings.paths, settings.concurrency)}`);
    const cpu = settings.clients.map((kind) => `### CPU µs per call, ${KIND_LABELS[kind]}\n\n${cpuTable(summaries, kind, settings.paths, settings.concurrency)}`);
    const cpuRatios = settings.clients.map((kind) => cpuRatioTable(summaries, kind, settings.concurrency)).join('\n\n');
    const ratios = ratioTable(summaries, settings.concurrency);
    const aims = [...checkAims(summaries, settings.concurrency, chokepoint), ...(audit ? auditAims(audit) : []), ...(catalog ? catalogAims(catalog) : []), ...(search ? catalogSearchAims(search) : []), ...(definitions ? definitionScanAims(definitions) : []), ...(startup ? startupAims(startup) : []), ...(auth ? authAims(auth) : [])];
    const extra = [extraSections(audit, catalog, startup, auth), search ? catalogSearchSection(search) : '', definitions ? definitionScanSection(definitions) : ''].filter(Boolean).join('\n\n');
    const choke = chokepoint && chokepointTable(chokepoint);
    process.stdout.write(`\n${tables.join('\n\n')}\n\n### Ratios\n\n${ratios}\n\n${cpu.join('\n\n')}\n\n${cpuRatios}\n\n`);
    if (choke) process.stdout.write(`### Chokepoint cost per call (in process, default filters)\n\n${choke}\n\n`);
    if (extra) process.stdout.write(`${extra}\n\n`);
    for (const a of aims) process.stdout.write(`${a.met === undefined ? '·' : a.met ? '✅' : '❌'} ${a.text}\n`);
    process.stdout.write(`\n(${seconds.toFixed(0)} s)\n`);
    if (settings.outFile) {
      const file = path.resolve(ROOT, settings.outFile);
      writeFileSync(file, renderDocument({ settings, machine: describeMachine(), started, seconds, summaries, tables, ratios, cpu, cpuRatios, chokepoint: choke, extra, aims }) + keptNotes(file));
      log(`wrote ${file}`);
    }
  } finally {
    await Promise.allSettled([...pools.values()].map((p) => p.close()));
    await Promise.allSettled([...targets.values()].map((t) => t.stop()));
    await stopAll();
    await stopOtlpSink();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping every process the bench started`);
    void stopAll().finally(() => process.exit(130));
  });
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  await stopAll();
  process.exit(1);
});
