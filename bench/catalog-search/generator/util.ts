/**
 * Small helpers shared by the catalog generators: a seeded PRNG (the catalog must be byte-for-byte the same on
 * every run, so Math.random is never used), entry constructors, and a few string/date helpers.
 */
import type { SearchDoc } from '../dataset.js';

/**
 * A group of related entries. `hard` families hold the near-duplicates of the target entries (same words,
 * different year/region/environment/kind); they are placed before the filler so that even the smallest catalog
 * contains them. `limit` caps how many entries a large filler family may contribute, so one family (say, daily
 * log files) cannot crowd out the others.
 */
export interface Family {
  id: string;
  hard: boolean;
  docs: SearchDoc[];
  limit?: number;
}

/**
 * One generator, two families: the entries closest to the targets go first (hard), the rest are filler. Keeps
 * the smallest catalog full of near-duplicates without making every sibling of every page "hard".
 */
export function splitFamily(id: string, docs: SearchDoc[], isHard: (doc: SearchDoc) => boolean): Family[] {
  return [
    { id: `${id}.near`, hard: true, docs: docs.filter(isHard) },
    { id: `${id}.rest`, hard: false, docs: docs.filter((d) => !isHard(d)) },
  ];
}

/** FNV-1a, to turn a family id into a PRNG seed: each family gets its own stream, so editing one leaves the rest. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast and good enough to shuffle and sample test data. Returns floats in [0, 1). */
export function rng(seed: string): () => number {
  let a = hashSeed(seed);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates on a copy. */
export function shuffle<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function pick<T>(items: readonly T[], rand: () => number): T {
  return items[Math.floor(rand() * items.length)];
}

/** `count` distinct items, in a random order. */
export function sample<T>(items: readonly T[], count: number, rand: () => number): T[] {
  return shuffle(items, rand).slice(0, count);
}

export function resource(server: string, key: string, name: string, title: string, description: string, mimeType?: string): SearchDoc {
  return mimeType ? { kind: 'resource', server, key, name, title, description, mimeType } : { kind: 'resource', server, key, name, title, description };
}

export function template(server: string, key: string, name: string, title: string, description: string): SearchDoc {
  return { kind: 'template', server, key, name, title, description };
}

export function prompt(server: string, name: string, title: string, description: string): SearchDoc {
  return { kind: 'prompt', server, key: name, name, title, description };
}

export function tool(server: string, name: string, title: string, description: string): SearchDoc {
  return { kind: 'tool', server, key: name, name, title, description };
}

/** Entries of one server, without naming it each time: templates, tools and prompts. */
export function makersFor(server: string) {
  return {
    t: (key: string, name: string, title: string, d: string) => template(server, key, name, title, d),
    f: (name: string, title: string, d: string) => tool(server, name, title, d),
    p: (name: string, title: string, d: string) => prompt(server, name, title, d),
  };
}

const ACRONYMS = new Set(['sre', 'ml', 'api', 'sdk', 'slo', 'faq', 'qbr', 'pr', 'sql', 'ab', 'nps', 'okr', 'rfp', 'crm', 'kpi', 'ui', 'adr', 'dns', 'cdn', 'tls', 'grpc', 'rest', 'aws']);

/** 'data-platform' -> 'Data Platform', 'api_keys' -> 'API Keys'. */
export function titleCase(slug: string): string {
  return slug
    .split(/[-_ ]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w[0].toUpperCase() + w.slice(1)))
    .join(' ');
}

/** 'api_keys' -> 'api keys': tool and prompt names read as words in descriptions. */
export function words(slug: string): string {
  return slug.replace(/[-_]+/g, ' ');
}

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Every day from `from` to `to` inclusive, as YYYY-MM-DD (UTC, so no time-zone drift). */
export function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** 'YYYY-MM-DD' -> 'March 14, 2025'. */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** The first given weekday (0 = Sunday) of a month, as YYYY-MM-DD. */
export function firstWeekday(year: number, month: number, weekday: number): string {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const day = 1 + ((weekday - first.getUTCDay() + 7) % 7);
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' plus n days. */
export function addDays(iso: string, n: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}
