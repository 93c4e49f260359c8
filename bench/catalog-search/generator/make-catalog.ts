/**
 * A synthetic but realistic MCP catalog for evaluating `search_catalog`: resources, resource templates, prompts
 * and tools from 18 servers. The first entries are the targets that questions.json asks about; the rest are
 * distractors, hardest first: near-duplicates of the targets (other years, regions, environments, kinds), then
 * combinatorial filler that reuses the same vocabulary.
 *
 * The bench does not run this: it reads the catalog frozen from it (../dataset.ts). After changing a generator,
 * write the file again with `node --import tsx bench/catalog-search/generator/freeze.ts`.
 */
import { KINDS, type Kind, type SearchDoc } from '../dataset.js';
import { BUSINESS_FAMILIES } from './domains-business.js';
import { CALENDAR_CHAT_FAMILIES } from './domains-calendar-chat.js';
import { DOCS_FAMILIES } from './domains-docs.js';
import { FILES_FAMILIES } from './domains-files.js';
import { GITHUB_FAMILIES } from './domains-github.js';
import { INFRA_FAMILIES } from './domains-infra.js';
import { WIKI_FAMILIES } from './domains-wiki.js';
import { FILLER_FAMILIES } from './filler.js';
import { TARGET_KEYS } from './targets.js';
import { rng, sample, shuffle, type Family } from './util.js';

/** Target mix of the whole catalog, roughly what a gateway in front of many servers sees. */
export const KIND_SHARE: Record<Kind, number> = { resource: 0.6, template: 0.1, prompt: 0.1, tool: 0.2 };

export const MIN_SIZE = 2000;

/** In this order: the pools are shuffled with seeded streams, so the order is part of what the catalog is. */
export const FAMILIES: readonly Family[] = [
  ...[WIKI_FAMILIES, FILES_FAMILIES, CALENDAR_CHAT_FAMILIES], // company-wide servers
  ...[GITHUB_FAMILIES, INFRA_FAMILIES, DOCS_FAMILIES], // engineering servers
  BUSINESS_FAMILIES,
  FILLER_FAMILIES,
].flat();

/**
 * Identity used for de-duplication. Two templates that differ only in parameter names
 * ('crm://customers/{id}' vs 'crm://customers/{customer_id}') are the same entry to a reader, so they collide.
 */
export function identity(doc: SearchDoc): string {
  return doc.kind === 'template' ? doc.key.replace(/\{[^}]*\}/g, '{}') : doc.key;
}

interface Pools {
  targets: SearchDoc[];
  queues: Record<Kind, SearchDoc[]>;
}

let pools: Pools | undefined;

/**
 * Targets in TARGET_KEYS order, then one queue per kind: all hard entries (shuffled), then the filler (shuffled,
 * each large family capped at its limit). Built once; everything here is a pure function of the source.
 */
function buildPools(): Pools {
  const byKey = new Map<string, SearchDoc>();
  for (const family of FAMILIES) for (const doc of family.docs) if (!byKey.has(doc.key)) byKey.set(doc.key, doc);
  const targets = TARGET_KEYS.map((key) => {
    const doc = byKey.get(key);
    if (!doc) throw new Error(`target ${key} is not produced by any family`);
    return doc;
  });
  const queues: Record<Kind, SearchDoc[]> = { resource: [], template: [], prompt: [], tool: [] };
  for (const hard of [true, false]) {
    const pool = FAMILIES.filter((f) => f.hard === hard).flatMap((f) => (f.limit ? sample(f.docs, f.limit, rng(`limit:${f.id}`)) : f.docs));
    for (const doc of shuffle(pool, rng(hard ? 'order:hard' : 'order:filler'))) queues[doc.kind].push(doc);
  }
  return { targets, queues };
}

/** The kind furthest below its share once the next entry is added, among kinds that still have entries. */
function nextKind(counts: Record<Kind, number>, total: number, hasMore: (k: Kind) => boolean): Kind | undefined {
  let best: Kind | undefined;
  let bestDeficit = -Infinity;
  for (const k of KINDS) {
    if (!hasMore(k)) continue;
    const deficit = KIND_SHARE[k] * (total + 1) - counts[k];
    if (deficit > bestDeficit) [best, bestDeficit] = [k, deficit];
  }
  return best;
}

/**
 * Deterministic (seeded PRNG, no Math.random) catalog of exactly `size` entries (size >= 2000). The first
 * entries are always the same target entries the questions refer to; the rest are realistic distractors.
 * Smaller catalogs are prefixes of larger ones, so a question's near-duplicates are present at every size.
 */
export function makeCatalog(size: number): SearchDoc[] {
  if (!Number.isInteger(size) || size < MIN_SIZE) throw new RangeError(`catalog size must be an integer >= ${MIN_SIZE}, got ${size}`);
  pools ??= buildPools();
  const { targets, queues } = pools;
  const out = targets.map((d) => ({ ...d }));
  const seen = new Set(out.map(identity));
  const counts: Record<Kind, number> = { resource: 0, template: 0, prompt: 0, tool: 0 };
  for (const d of out) counts[d.kind]++;
  const next: Record<Kind, number> = { resource: 0, template: 0, prompt: 0, tool: 0 };
  while (out.length < size) {
    const kind = nextKind(counts, out.length, (k) => next[k] < queues[k].length);
    if (!kind) throw new Error(`distractor generators ran out after ${out.length} entries`);
    const doc = queues[kind][next[kind]++];
    const id = identity(doc);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ ...doc });
    counts[kind]++;
  }
  return out;
}
