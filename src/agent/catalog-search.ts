import MiniSearch, { type Query, type SearchResult } from 'minisearch';

/**
 * Full-text search over the catalog for search_catalog: BM25 ranking (MiniSearch) over keys (URIs, template
 * URIs, prompt and tool names), names, titles and descriptions, with prefix and typo tolerance. Past the budget
 * this is all the model has to find an entry, so its ranking decides what the model can reach.
 */

export type SearchKind = 'resource' | 'template' | 'prompt' | 'tool';

/** What is indexed of one entry: what a client sees of it, nothing else. */
export interface SearchDoc {
  kind: SearchKind;
  server: string;
  /** The URI, template, or (qualified) prompt or tool name: what the model passes back. */
  key: string;
  name?: string;
  title?: string;
  description?: string;
}

/** Words that carry no meaning in a question ("how do I find the …"); BM25 weighs them little, not nothing. */
const STOP_WORDS = new Set(
  ('a an and are as at be by can could do does for from get give how i in is it its me my of on or our please ' +
    'show should tell that the their there this to us was we what when where which who why will with would you your ' +
    'find look looking need want about any some all into via file files resource resources tool tools prompt prompts').split(' '),
);

/**
 * Words that name the same thing in software work, both ways. General vocabulary, not tuned to any catalog:
 * a question says "bug", the tracker says "issue".
 */
const SYNONYMS: string[][] = [
  ['bug', 'issue', 'defect', 'ticket'],
  ['meeting', 'event', 'appointment', 'calendar'],
  ['revenue', 'income', 'sales', 'earnings'],
  ['money', 'revenue', 'finance', 'financial'],
  ['customer', 'client', 'account'],
  ['doc', 'docs', 'document', 'documentation', 'guide', 'manual'],
  ['db', 'database', 'postgres', 'sql'],
  ['k8s', 'kubernetes'],
  ['deploy', 'deployment', 'release', 'rollout'],
  ['incident', 'outage', 'postmortem'],
  ['error', 'errors', 'failure', 'exception'],
  ['log', 'logs', 'logging'],
  ['config', 'configuration', 'settings'],
  ['delete', 'remove'],
  ['create', 'new', 'add', 'make'],
  ['list', 'enumerate'],
  ['send', 'post'],
  ['message', 'chat'],
  ['user', 'employee', 'person', 'people', 'staff'],
  ['summary', 'summarize', 'summarise', 'overview', 'recap'],
  ['pr', 'pull', 'merge'],
  ['repo', 'repository'],
  ['q1', 'first quarter'],
  ['q2', 'second quarter'],
  ['q3', 'third quarter'],
  ['q4', 'fourth quarter'],
  ['prod', 'production', 'live'],
  ['staging', 'stage', 'preprod'],
  ['eu', 'europe', 'european'],
  ['us', 'usa', 'america'],
  ['dashboard', 'chart', 'graph', 'metrics'],
  ['alert', 'alarm', 'page'],
  ['invoice', 'bill', 'billing'],
  ['price', 'pricing', 'cost'],
  ['hire', 'hiring', 'recruiting', 'onboarding'],
  ['vacation', 'holiday', 'leave', 'pto'],
  ['schema', 'table', 'columns'],
  ['search', 'query', 'lookup'],
];

const synonymsOf = buildSynonyms();

function buildSynonyms(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const group of SYNONYMS) {
    for (const word of group) {
      if (word.includes(' ')) continue;
      const others = group.filter((w) => w !== word && !w.includes(' '));
      map.set(stem(word), [...new Set([...(map.get(stem(word)) ?? []), ...others])]);
    }
  }
  return map;
}

/** Splits names as people and machines write them: `get_customer`, `listAlerts`, `q3-2025.xlsx`, `a/b/c`. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/** A light stemmer: plural and common endings off, so "deployments", "deploying" and "deploy" meet. */
function stem(term: string): string {
  let t = term;
  if (t.length > 5 && t.endsWith('ies')) t = `${t.slice(0, -3)}y`;
  else if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss')) t = t.slice(0, -1);
  if (t.length > 5 && t.endsWith('ing')) t = t.slice(0, -3);
  else if (t.length > 4 && t.endsWith('ed')) t = t.slice(0, -2);
  return t;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length === 0 ? null : stem(lower);
}

/** A query word held by more than this share of the entries only re-ranks what the query's other words found. */
const COMMON_SHARE = 0.05;

/** Names and keys say what an entry is more surely than its description; the server's name says least. */
const FIELD_BOOST = { key: 2, name: 2, title: 2, description: 1, server: 0.5 };

export class CatalogIndex<T extends SearchDoc = SearchDoc> {
  private readonly index: MiniSearch<SearchDoc & { id: number }>;
  private readonly docs: T[];
  /**
   * Every indexed term with the number of entries holding it: a query word found here is taken as written (only
   * the others are typos or beginnings), and one that most entries hold is left out when the query has others.
   */
  private readonly vocabulary = new Map<string, number>();
  /** How many entries hold a word that counts as common (see COMMON_SHARE). */
  private readonly commonAt: number;
  /** Entries by their key, lower-cased: a query that is a key finds it first. */
  private readonly byKey = new Map<string, T[]>();

  constructor(docs: readonly T[]) {
    this.docs = [...docs];
    // In a small catalog every word is cheap to score: only large ones have words worth treating as common.
    this.commonAt = Math.max(50, this.docs.length * COMMON_SHARE);
    this.index = new MiniSearch({
      fields: ['key', 'name', 'title', 'description', 'server'],
      storeFields: [],
      tokenize,
      processTerm,
      searchOptions: { tokenize, processTerm },
    });
    this.index.addAll(this.docs.map((d, id) => ({ kind: d.kind, server: d.server, key: d.key, name: d.name, title: d.title, description: d.description, id })));
    for (const d of this.docs) {
      const key = d.key.toLowerCase();
      this.byKey.set(key, [...(this.byKey.get(key) ?? []), d]);
      const terms = new Set([d.key, d.name, d.title, d.description, d.server].flatMap((text) => tokenize(text ?? '').map((t) => processTerm(t) ?? '')));
      for (const t of terms) this.vocabulary.set(t, (this.vocabulary.get(t) ?? 0) + 1);
    }
  }

  /** The best matches for a few words or a question, best first; an exact key comes first of all. */
  search(query: string, limit = 20, kind?: SearchKind): T[] {
    const exact = (this.byKey.get(query.trim().toLowerCase()) ?? []).filter((d) => !kind || d.kind === kind);
    const words = tokenize(query).map((w) => w.toLowerCase());
    const meaningful = words.filter((w) => !STOP_WORDS.has(w));
    const asked = meaningful.length > 0 ? meaningful : words;
    if (asked.length === 0) return exact.slice(0, limit);
    const common = (t: string) => (this.vocabulary.get(processTerm(t) ?? '') ?? 0) > this.commonAt;
    const specific = asked.filter((t) => !common(t));
    let hits = specific.length > 0 ? this.score(specific, common, kind) : [];
    if (hits.length === 0) hits = this.score(asked, common, kind);
    else if (specific.length < asked.length) this.addCommonWords(hits, asked.filter(common));
    // An entry that matches more of the question's words beats one that matches a single word many times; a
    // synonym covers its word half.
    const wanted = [...new Set(asked.map((t) => processTerm(t) ?? ''))].map((w) => ({ w, related: (synonymsOf.get(w) ?? []).map((r) => processTerm(r) ?? '') }));
    for (const h of hits) {
      const matched = new Set(h.queryTerms);
      const covered = wanted.reduce((sum, { w, related }) => sum + (matched.has(w) ? 1 : related.some((r) => matched.has(r)) ? 0.5 : 0), 0) / wanted.length;
      h.score *= covered * covered;
    }
    hits.sort((a, b) => b.score - a.score);
    const ranked = hits.map((h) => this.docs[h.id as number]).filter((d) => !exact.includes(d));
    return [...exact, ...ranked].slice(0, limit);
  }

  /** BM25 over the whole catalog for the query's words, typo-tolerant where a word is unknown, and their synonyms. */
  private score(terms: string[], common: (t: string) => boolean, kind?: SearchKind): SearchResult[] {
    // Fuzzy and prefix matching cost most of a search and help only words the catalog does not hold as written.
    const unknown = (t: string) => !this.vocabulary.has(processTerm(t) ?? '');
    const queries: Query[] = [
      { queries: terms, combineWith: 'OR', prefix: (t: string) => t.length >= 4 && unknown(t), fuzzy: (t: string) => t.length >= 5 && unknown(t) && 0.2 },
    ];
    // Synonyms count, for less than the words the question used.
    const related = [...new Set(terms.flatMap((t) => synonymsOf.get(stem(t)) ?? []))].filter((t) => !terms.includes(t) && !common(t));
    if (related.length > 0) queries.push({ queries: related, combineWith: 'OR', boost: { key: 0.5, name: 0.5, title: 0.5, description: 0.5 } });
    return this.index.search({ combineWith: 'OR', queries }, { boost: FIELD_BOOST, filter: kind ? (r) => this.docs[r.id as number].kind === kind : undefined });
  }

  /**
   * Words many entries hold re-rank only what the specific words found: scored over the whole catalog they are
   * most of a search's cost, and on their own they find nothing in particular.
   */
  private addCommonWords(hits: SearchResult[], words: string[]): void {
    const byId = new Map(hits.map((h) => [h.id as number, h]));
    if (byId.size === 0) return;
    const extra = this.index.search({ combineWith: 'OR', queries: words }, { boost: FIELD_BOOST, boostDocument: (id) => (byId.has(id as number) ? 1 : 0) });
    for (const e of extra) {
      const hit = byId.get(e.id as number);
      if (!hit) continue;
      hit.score += e.score;
      hit.queryTerms.push(...e.queryTerms);
    }
  }

}
