/**
 * The content filters' two error rates. Recall: how many generated valid-format values (the generators of the recall
 * test) each detector finds and redacts. False positives: findings per MB in a benign corpus, the READMEs, scripts,
 * type declarations and Markdown under node_modules, read once (files over 1 MB skipped, 50 MB in all). Some of
 * those findings are real (test fixtures, documentation examples): the examples printed are for a human to judge.
 *
 *   node --import tsx bench/filters.ts            (FILTERS_SAMPLES, FILTERS_CORPUS_MB and FILTERS_SEED to change)
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { embedded, GENERATORS } from '../test/unit/filters-generators.js';
import { ROOT } from './paths.js';
import { DETECTORS, type FilterActions, scanText } from './sluice-internals.js';

const ALL: FilterActions = { secret: 'redact', pii: 'redact', injection: 'redact' };

export interface Recall {
  kind: string;
  samples: number;
  found: number;
  redacted: number;
  /** A few values that were missed, for the reader. */
  missed: string[];
}

export function measureRecall(samples: number, seed: number): Recall[] {
  return Object.entries(GENERATORS).map(([kind, generator]) => {
    const r: Recall = { kind, samples, found: 0, redacted: 0, missed: [] };
    for (const { sample, text } of fc.sample(embedded(generator), { numRuns: samples, seed })) {
      const scanned = scanText(text, ALL);
      if (scanned.findings.some((f) => f.kind === kind && f.category === sample.category)) r.found++;
      else if (r.missed.length < 3) r.missed.push(JSON.stringify(text));
      if (!scanned.text.includes(sample.sensitive)) r.redacted++;
    }
    return r;
  });
}

interface CorpusFile {
  path: string;
  text: string;
}

/** Text files under node_modules in an order that spreads across packages (by a hash of the path), up to `capBytes`. */
function readCorpus(capBytes: number): { files: CorpusFile[]; bytes: number } {
  const candidates: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && /(?:^README[^/]*\.md|\.(?:js|ts|md))$/i.test(entry.name)) candidates.push(path);
    }
  };
  walk(join(ROOT, 'node_modules'));
  const order = (p: string) => createHash('sha1').update(relative(ROOT, p)).digest('hex');
  candidates.sort((a, b) => (order(a) < order(b) ? -1 : 1));
  const files: CorpusFile[] = [];
  let bytes = 0;
  for (const path of candidates) {
    const size = statSync(path).size;
    if (size > 1_000_000 || size === 0) continue;
    if (bytes + size > capBytes) break;
    files.push({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') });
    bytes += size;
  }
  return { files, bytes };
}

export interface FalsePositives {
  files: number;
  megabytes: number;
  scanMs: number;
  byKind: { kind: string; category: string; findings: number; files: number; examples: string[] }[];
}

/** A finding shown without giving a real secret away: its start and end, and its length. */
function truncated(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length <= 16 ? flat : `${flat.slice(0, 10)}…${flat.slice(-4)} (${flat.length} chars)`;
}

export function measureFalsePositives(capBytes: number): FalsePositives {
  const { files, bytes } = readCorpus(capBytes);
  const byKind = new Map<string, { kind: string; category: string; findings: number; files: Set<string>; examples: string[] }>();
  const started = process.hrtime.bigint();
  const found: [CorpusFile, string][] = [];
  for (const file of files) {
    const kinds = new Set<string>();
    for (const f of scanText(file.text, ALL).findings) {
      const entry = byKind.get(f.kind) ?? { kind: f.kind, category: f.category, findings: 0, files: new Set<string>(), examples: [] };
      entry.findings++;
      entry.files.add(file.path);
      byKind.set(f.kind, entry);
      kinds.add(f.kind);
    }
    for (const kind of kinds) found.push([file, kind]);
  }
  const scanMs = Number(process.hrtime.bigint() - started) / 1e6;
  // Examples, outside the timing: the detector's own matches in the first files that had that kind.
  for (const [file, kind] of found) {
    const entry = byKind.get(kind)!;
    if (entry.examples.length >= 4) continue;
    const example = DETECTORS.filter((d) => d.kind === kind)
      .flatMap((d) => [...file.text.matchAll(new RegExp(d.pattern.source, d.pattern.flags))].map((m) => [m[0], d.locate ? d.locate(m[0]) : ([0, m[0].length] as const)] as const))
      .find(([, span]) => span !== undefined);
    if (example) entry.examples.push(`${truncated(example[0].slice(example[1]![0], example[1]![1]))} in ${file.path.replace(/^node_modules\//, '')}`);
  }
  return {
    files: files.length,
    megabytes: bytes / 1e6,
    scanMs,
    byKind: [...byKind.values()].sort((a, b) => b.findings - a.findings).map((e) => ({ ...e, files: e.files.size })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const samples = Number(process.env.FILTERS_SAMPLES ?? 10_000);
  const seed = Number(process.env.FILTERS_SEED ?? 42);
  const recall = measureRecall(samples, seed);
  console.log(`### Recall: ${samples} generated values per kind (seed ${seed}), in random text\n`);
  console.log('| kind | found | redacted |');
  console.log('| --- | ---: | ---: |');
  for (const r of recall) console.log(`| ${r.kind} | ${((100 * r.found) / r.samples).toFixed(2)}% | ${((100 * r.redacted) / r.samples).toFixed(2)}% |`);
  const missed = recall.filter((r) => r.missed.length > 0);
  if (missed.length > 0) {
    console.log('\nMissed, for example:');
    for (const r of missed) for (const m of r.missed) console.log(`- ${r.kind}: ${m.length > 200 ? `${m.slice(0, 200)}…` : m}`);
  }

  const fp = measureFalsePositives(Number(process.env.FILTERS_CORPUS_MB ?? 50) * 1e6);
  console.log(`\n### Findings in a benign corpus: ${fp.files} files, ${fp.megabytes.toFixed(1)} MB of node_modules text, scanned in ${fp.scanMs.toFixed(0)} ms (${(fp.megabytes / (fp.scanMs / 1000)).toFixed(1)} MB/s)\n`);
  console.log('| kind | category | findings | per MB | files |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const k of fp.byKind) console.log(`| ${k.kind} | ${k.category} | ${k.findings} | ${(k.findings / fp.megabytes).toFixed(2)} | ${k.files} |`);
  const total = fp.byKind.reduce((s, k) => s + k.findings, 0);
  console.log(`| all | | ${total} | ${(total / fp.megabytes).toFixed(2)} | |`);
  console.log('\nExamples (truncated), top kinds first:');
  for (const k of fp.byKind) console.log(`- ${k.kind}: ${k.examples.join('; ')}`);
}
