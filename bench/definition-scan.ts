/**
 * The definition scanner: what it catches in the labelled corpora (per corpus and category), and what it adds to
 * discovery — every definition of a 1,000-tool catalog scanned beside the other servers' tools, as the gateway
 * does when it lists an upstream.
 *
 *   node --import tsx bench/definition-scan.ts
 */
import { makeCatalog } from './catalog-search/catalog.js';
import { corpora, flagCase, rates, type Rates } from './definition-scan/corpora.js';
import type { AimResult } from './report.js';
import { PeerIndex, scanDefinition, type ScannedDefinition } from '../dist/definitions/scan.js';

export interface DefinitionScanFigures {
  rates: Rates[];
  tools: number;
  /** Milliseconds to scan the whole catalog, one figure per round; the first rounds run cold (JIT warming up). */
  roundsMs: number[];
}

/** 1,000 tools on 18 servers, each with a three-parameter schema whose properties are described. */
function catalogOfTools(count: number): { server: string; def: ScannedDefinition }[] {
  return makeCatalog(10_000)
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

export function measureDefinitionScan(rounds = 12): DefinitionScanFigures {
  const all = corpora().flatMap((c) => rates(c, (k) => flagCase(k, scanDefinition)));
  const tools = catalogOfTools(1000);
  const roundsMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    // What discovery does: one index of every server's tools, then every tool scanned beside the others'.
    const index = new PeerIndex(tools.map((t) => ({ server: t.server, name: t.def.name, description: t.def.description })));
    for (const t of tools) scanDefinition(t.def, index.from(t.server));
    roundsMs.push(performance.now() - started);
  }
  return { rates: all, tools: tools.length, roundsMs };
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
  ];
}

export function definitionScanSection(f: DefinitionScanFigures): string {
  const rows = f.rates.map((r) => `| ${r.corpus} | ${r.group} | ${r.flagged}/${r.of} | ${(r.flagged / r.of).toFixed(2)} |`);
  return `### Definition scanner (\`bench/definition-scan.ts\`, in process)

| corpus | entries | flagged | rate |
| --- | --- | ---: | ---: |
${rows.join('\n')}

Scanning ${f.tools} tools (18 servers, each tool beside every other server's tools): first round (cold) ${f.roundsMs[0].toFixed(0)} ms, then ${f.roundsMs.slice(1, WARM_FROM).map((ms) => ms.toFixed(0)).join(' / ')} ms while the JIT warms up; warm median ${warm(f).toFixed(1)} ms (${f.roundsMs.slice(WARM_FROM).map((ms) => ms.toFixed(1)).join(' / ')}).`;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const f = measureDefinitionScan();
  process.stdout.write(`${definitionScanSection(f)}\n\n${definitionScanAims(f).map((a) => `${a.met ? '✅' : '❌'} ${a.text}`).join('\n')}\n`);
}
