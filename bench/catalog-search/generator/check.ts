/**
 * Sanity checks for the catalog-search dataset's generator and questions (no search involved):
 *
 *   node --import tsx bench/catalog-search/generator/check.ts
 *
 * Verifies sizes, unique keys, determinism, that every question's expected key is in the smallest catalog,
 * and the style and kind mix of the questions. Prints a summary; exits non-zero on any failure.
 */
import { KINDS, loadQuestions, type Kind, type SearchDoc } from '../dataset.js';
import { FAMILIES, makeCatalog, MIN_SIZE } from './make-catalog.js';
import { TARGET_KEYS } from './targets.js';

const STYLES = ['keywords', 'question', 'paraphrase', 'typo'] as const;
const MIN_QUESTIONS = 200;
const MIN_PER_KIND = 25;

const failures: string[] = [];
function check(ok: boolean, message: string): void {
  if (!ok) failures.push(message);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function pct(n: number, total: number): string {
  return `${((100 * n) / total).toFixed(1)}%`;
}

function checkCatalog(size: number): SearchDoc[] {
  const docs = makeCatalog(size);
  check(docs.length === size, `makeCatalog(${size}) returned ${docs.length} entries`);
  const keys = new Set(docs.map((d) => d.key));
  check(keys.size === docs.length, `makeCatalog(${size}) has ${docs.length - keys.size} duplicate keys`);
  check(JSON.stringify(makeCatalog(size)) === JSON.stringify(docs), `makeCatalog(${size}) is not deterministic`);
  for (const d of docs) {
    check(KINDS.includes(d.kind), `unknown kind ${d.kind} for ${d.key}`);
    check(!!d.server && !!d.key && !!d.description, `entry ${d.key} lacks server, key or description`);
    check(d.kind !== 'template' || /\{[^}]+\}/.test(d.key), `template ${d.key} has no {parameter}`);
    check(d.mimeType === undefined || d.kind === 'resource', `${d.kind} ${d.key} has a mimeType`);
    check((d.kind !== 'prompt' && d.kind !== 'tool') || d.name === d.key, `${d.kind} ${d.key} name differs from key`);
  }
  TARGET_KEYS.forEach((k, i) => check(docs[i]?.key === k, `makeCatalog(${size}) entry ${i} is ${docs[i]?.key}, expected target ${k}`));
  const kinds = countBy(docs, (d) => d.kind);
  const servers = countBy(docs, (d) => d.server);
  console.log(`makeCatalog(${size}): ${docs.length} entries, ${servers.size} servers`);
  console.log(`  kinds:   ${KINDS.map((k) => `${k} ${kinds.get(k) ?? 0} (${pct(kinds.get(k) ?? 0, docs.length)})`).join(', ')}`);
  console.log(`  servers: ${[...servers].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s} ${n}`).join(', ')}`);
  return docs;
}

function main(): void {
  const small = checkCatalog(MIN_SIZE);
  const large = checkCatalog(10_000);
  check(
    small.every((d, i) => JSON.stringify(d) === JSON.stringify(large[i])),
    'makeCatalog(2000) is not a prefix of makeCatalog(10000)',
  );
  // The near-duplicates must be in the smallest catalog too, or its questions get easier than intended.
  const smallKeys = new Set(small.map((d) => d.key));
  const hard = FAMILIES.filter((f) => f.hard).flatMap((f) => f.docs);
  const hardMissing = hard.filter((d) => !smallKeys.has(d.key)).length;
  console.log(`hard near-duplicates: ${hard.length}, missing from makeCatalog(${MIN_SIZE}): ${hardMissing}`);

  const questions = loadQuestions();
  check(Array.isArray(questions) && questions.length >= MIN_QUESTIONS, `need at least ${MIN_QUESTIONS} questions, have ${questions.length}`);
  const byKey = new Map(small.map((d) => [d.key, d]));
  for (const q of questions) {
    check(typeof q.query === 'string' && q.query.trim().length > 0, `empty query for ${q.expect}`);
    check(STYLES.includes(q.style), `bad style ${q.style} for "${q.query}"`);
    check(byKey.has(q.expect), `expected key not in makeCatalog(${MIN_SIZE}): ${q.expect} ("${q.query}")`);
    const doc = byKey.get(q.expect);
    // A query that contains the whole description is a copy, not a test.
    if (doc?.description) check(!q.query.toLowerCase().includes(doc.description.toLowerCase()), `query copies the description of ${q.expect}`);
  }
  const repeatedQueries = [...countBy(questions, (q) => q.query.toLowerCase())].filter(([, n]) => n > 1);
  check(repeatedQueries.length === 0, `repeated queries: ${repeatedQueries.map(([q]) => q).join('; ')}`);
  const perTarget = countBy(questions, (q) => q.expect);
  const overAsked = [...perTarget].filter(([, n]) => n > 2);
  check(overAsked.length === 0, `targets with more than two questions: ${overAsked.map(([k]) => k).join(', ')}`);
  const unasked = TARGET_KEYS.filter((k) => !perTarget.has(k));
  check(unasked.length === 0, `targets no question asks about: ${unasked.join(', ')}`);

  const styles = countBy(questions, (q) => q.style);
  const kinds = countBy(questions, (q) => byKey.get(q.expect)?.kind ?? 'missing');
  const servers = countBy(questions, (q) => byKey.get(q.expect)?.server ?? 'missing');
  for (const k of KINDS) check((kinds.get(k) ?? 0) >= MIN_PER_KIND, `only ${kinds.get(k) ?? 0} questions expect a ${k}`);
  console.log(`questions: ${questions.length}, distinct targets: ${perTarget.size} (${[...perTarget.values()].filter((n) => n === 2).length} asked twice)`);
  console.log(`  styles:  ${STYLES.map((s) => `${s} ${styles.get(s) ?? 0} (${pct(styles.get(s) ?? 0, questions.length)})`).join(', ')}`);
  console.log(`  kinds:   ${KINDS.map((k: Kind) => `${k} ${kinds.get(k) ?? 0}`).join(', ')}`);
  console.log(`  servers: ${[...servers].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s} ${n}`).join(', ')}`);

  if (failures.length > 0) {
    console.error(`\n${failures.length} check(s) failed:`);
    for (const f of failures.slice(0, 50)) console.error(`  - ${f}`);
    process.exit(1);
  }
  console.log('\nall checks passed');
}

main();
