/**
 * The definition scanner: what it catches in the labelled corpora (per corpus and category), and what it adds to
 * discovery — every definition of a 1,000-tool catalog scanned beside the other servers' tools, as the gateway
 * does when it lists an upstream.
 *
 *   node --import tsx bench/definition-scan.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { corpora, flagCase, rates, type Rates } from '../test/helpers/tool-poisoning.js';
import { frozenCatalog } from './catalog-search/dataset.js';
import type { AimResult } from './report.js';
import { DefinitionGuard, type OfferedServer, PeerIndex, scanDefinition, type ScannedDefinition, sqliteState } from './sluice-internals.js';

export interface DefinitionScanFigures {
  rates: Rates[];
  tools: number;
  /** Milliseconds to scan the whole catalog, one figure per round; the first rounds run cold (JIT warming up). */
  roundsMs: number[];
  /** The whole first sight through the definition guard (pin, scan, decide, write to SQLite), per round. */
  firstSightMs: number[];
  /** The same catalog listed again (a reconnect, a restart, a list_changed with nothing new): pins compared. */
  againMs: number[];
}

/** 1,000 tools on 18 servers, each with a three-parameter schema whose properties are described. */
function catalogOfTools(count: number): { server: string; def: ScannedDefinition }[] {
  return frozenCatalog(10_000)
    .filter((d) => d.kind === 'tool')
    .slice(0, count)
    .map((d) => ({
      server: d.server,
      def: {
        name: d.key,
        title: d.title,
        description: d.description,
        annotations: { readOnlyHint: /^(?:get|list|search|read|find|count)_/.test(d.key) },
        inputSchema: {
          type: 'object',
          properties: {
            id: { type: 'string', description: `The id of the ${d.server} object to work on.` },
            limit: { type: 'integer', minimum: 1, maximum: 100, description: 'At most this many results.' },
            filter: { type: 'string', description: 'Only entries matching this text, e.g. "status:open".' },
          },
          required: ['id'],
        },
      },
    }));
}

/** What a gateway reviews: the tools grouped by server, as fresh objects (a new listing never hits a cache). */
function offersOf(tools: { server: string; def: ScannedDefinition }[]): OfferedServer[] {
  const byServer = new Map<string, ScannedDefinition[]>();
  for (const t of tools) (byServer.get(t.server) ?? byServer.set(t.server, []).get(t.server)!).push(structuredClone(t.def));
  return [...byServer].map(([server, list]) => ({ server, policy: { changed: 'quarantine', flagged: 'quarantine' }, tools: list as unknown as Record<string, unknown>[], prompts: [], resources: [], resourceTemplates: [] }));
}

export async function measureDefinitionScan(rounds = 12): Promise<DefinitionScanFigures> {
  const all = corpora().flatMap((c) => rates(c, (k) => flagCase(k, scanDefinition)));
  const tools = catalogOfTools(1000);
  const figures: DefinitionScanFigures = { rates: all, tools: tools.length, roundsMs: [], firstSightMs: [], againMs: [] };
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-bench-pins-'));
  try {
    // Interleaved: each round measures the scan alone, a first sight and a listing again, one after the other.
    for (let r = 0; r < rounds; r++) {
      let started = performance.now();
      // What discovery does: one index of every server's tools, then every tool scanned beside the others'.
      const index = new PeerIndex(tools.map((t) => ({ server: t.server, name: t.def.name, description: t.def.description })));
      for (const t of tools) scanDefinition(t.def, index.from(t.server));
      figures.roundsMs.push(performance.now() - started);

      const state = sqliteState(path.join(dir, `state-${r}.db`), randomBytes(32));
      const guard = new DefinitionGuard(state.pins);
      const servers = offersOf(tools);
      const names = servers.map((s) => s.server);
      started = performance.now();
      await guard.review(servers, names);
      figures.firstSightMs.push(performance.now() - started);
      const again = offersOf(tools);
      started = performance.now();
      await guard.review(again, names);
      figures.againMs.push(performance.now() - started);
      await state.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Rounds after the JIT has warmed up: what every discovery after the first few costs. */
const WARM_FROM = 4;
const warm = (f: DefinitionScanFigures) => median(f.roundsMs.slice(WARM_FROM));

export function definitionScanAims(f: DefinitionScanFigures): AimResult[] {
  const per = (group: string) => f.rates.filter((r) => r.group === group);
  return [
    ...per('malicious (recall)').map((r) => ({ text: `definition scanner recall ≥ 0.90 on ${r.corpus} (${r.flagged}/${r.of})`, met: r.flagged / r.of >= 0.9 })),
    ...per('benign (false positives)').map((r) => ({ text: `definition scanner false positives ≤ 0.05 on ${r.corpus} (${r.flagged}/${r.of})`, met: r.flagged / r.of <= 0.05 })),
    { text: `scanning ${f.tools} tools at discovery ≤ 50 ms (warm median ${warm(f).toFixed(1)} ms; the first, cold ${f.roundsMs[0].toFixed(0)} ms)`, met: warm(f) <= 50 },
    { text: `first sight of ${f.tools} tools through the definition guard (pin, scan, decide, SQLite) ≤ 50 ms (warm median ${median(f.firstSightMs.slice(WARM_FROM)).toFixed(1)} ms)`, met: median(f.firstSightMs.slice(WARM_FROM)) <= 50 },
    { text: `the same ${f.tools} tools listed again (pins compared, nothing scanned) ≤ 50 ms (warm median ${median(f.againMs.slice(WARM_FROM)).toFixed(1)} ms)`, met: median(f.againMs.slice(WARM_FROM)) <= 50 },
  ];
}

export function definitionScanSection(f: DefinitionScanFigures): string {
  const rows = f.rates.map((r) => `| ${r.corpus} | ${r.group} | ${r.flagged}/${r.of} | ${(r.flagged / r.of).toFixed(2)} |`);
  return `### Definition scanner (\`bench/definition-scan.ts\`, in process)

| corpus | entries | flagged | rate |
| --- | --- | ---: | ---: |
${rows.join('\n')}

Scanning ${f.tools} tools (18 servers, each tool beside every other server's tools): first round (cold) ${f.roundsMs[0].toFixed(0)} ms, then ${f.roundsMs.slice(1, WARM_FROM).map((ms) => ms.toFixed(0)).join(' / ')} ms while the JIT warms up; warm median ${warm(f).toFixed(1)} ms (${f.roundsMs.slice(WARM_FROM).map((ms) => ms.toFixed(1)).join(' / ')}).

Through the definition guard, as discovery runs it (\`DefinitionGuard.review\`: pin every definition, scan what is new, decide, write the pins to SQLite), interleaved with the scan above: first sight ${f.firstSightMs.map((ms) => ms.toFixed(0)).join(' / ')} ms (warm median ${median(f.firstSightMs.slice(WARM_FROM)).toFixed(1)} ms); the same catalog listed again, nothing new to scan: ${f.againMs.map((ms) => ms.toFixed(0)).join(' / ')} ms (warm median ${median(f.againMs.slice(WARM_FROM)).toFixed(1)} ms).`;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const f = await measureDefinitionScan();
  process.stdout.write(`${definitionScanSection(f)}\n\n${definitionScanAims(f).map((a) => `${a.met ? '✅' : '❌'} ${a.text}`).join('\n')}\n`);
}
