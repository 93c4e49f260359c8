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
  /** Milliseconds to scan the whole catalog, one figure per round. */
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

export function measureDefinitionScan(rounds = 7): DefinitionScanFigures {
  const all = corpora().flatMap((c) => rates(c, (k) => flagCase(k, scanDefinition)));
  const tools = catalogOfTools(1000);
  const roundsMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    // What discovery does: one index of everyone else's tools per server, then every tool scanned.
    const servers = [...new Set(tools.map((t) => t.server))];
    const others = new Map(servers.map((s) => [s, new PeerIndex(tools.filter((t) => t.server !== s).map((t) => ({ server: t.server, name: t.def.name, description: t.def.description })))]));
    for (const t of tools) scanDefinition(t.def, others.get(t.server)!);
    roundsMs.push(performance.now() - started);
  }
  return { rates: all, tools: tools.length, roundsMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function definitionScanAims(f: DefinitionScanFigures): AimResult[] {
  const per = (group: string) => f.rates.filter((r) => r.group === group);
  return [
    ...per('malicious (recall)').map((r) => ({ text: `definition scanner recall ≥ 0.90 on ${r.corpus} (${r.flagged}/${r.of})`, met: r.flagged / r.of >= 0.9 })),
    ...per('benign (false positives)').map((r) => ({ text: `definition scanner false positives ≤ 0.05 on ${r.corpus} (${r.flagged}/${r.of})`, met: r.flagged / r.of <= 0.05 })),
    { text: `scanning ${f.tools} tools at discovery ≤ 50 ms (median ${median(f.roundsMs.slice(1)).toFixed(1)} ms)`, met: median(f.roundsMs.slice(1)) <= 50 },
  ];
}

export function definitionScanSection(f: DefinitionScanFigures): string {
  const rows = f.rates.map((r) => `| ${r.corpus} | ${r.group} | ${r.flagged}/${r.of} | ${(r.flagged / r.of).toFixed(2)} |`);
  return `### Definition scanner (\`bench/definition-scan.ts\`, in process)

| corpus | entries | flagged | rate |
| --- | --- | ---: | ---: |
${rows.join('\n')}

Scanning ${f.tools} tools (18 servers, each tool beside every other server's tools): ${f.roundsMs.slice(1).map((ms) => ms.toFixed(1)).join(' / ')} ms per round after a warm-up round.`;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const f = measureDefinitionScan();
  process.stdout.write(`${definitionScanSection(f)}\n\n${definitionScanAims(f).map((a) => `${a.met ? '✅' : '❌'} ${a.text}`).join('\n')}\n`);
}
