import MiniSearch, { type Query } from 'minisearch';

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

export class CatalogIndex<T extends SearchDoc = SearchDoc> {
  private readonly index: MiniSearch<SearchDoc & { id: number }>;
  private readonly docs: T[];

  constructor(docs: readonly T[]) {
    this.docs = [...docs];
    this.index = new MiniSearch({
      fields: ['key', 'name', 'title', 'description', 'server'],
      storeFields: [],
      tokenize,
      processTerm,
      searchOptions: { tokenize, processTerm },
    });
    this.index.addAll(this.docs.map((d, id) => ({ kind: d.kind, server: d.server, key: d.key, name: d.name, title: d.title, description: d.description, id })));
  }

  /** The best matches for a few words or a question, best first; an exact key comes first of all. */
  search(query: string, limit = 20, kind?: SearchKind): T[] {
    const exact = this.docs.filter((d) => d.key.toLowerCase() === query.trim().toLowerCase() && (!kind || d.kind === kind));
    const words = tokenize(query).map((w) => w.toLowerCase());
    const meaningful = words.filter((w) => !STOP_WORDS.has(w));
    const terms = meaningful.length > 0 ? meaningful : words;
    if (terms.length === 0) return exact.slice(0, limit);
    const related = [...new Set(terms.flatMap((t) => synonymsOf.get(stem(t)) ?? []))].filter((t) => !terms.includes(t));
    const queries: Query[] = [
      { queries: terms, combineWith: 'OR', prefix: (t: string) => t.length >= 3, fuzzy: (t: string) => (t.length >= 5 ? 0.2 : t.length >= 4 ? 1 : false) },
    ];
    // Synonyms count, for less than the words the question used.
    if (related.length > 0) queries.push({ queries: related, combineWith: 'OR', boost: { key: 0.5, name: 0.5, title: 0.5, description: 0.5 } });
    const hits = this.index.search(
      { combineWith: 'OR', queries },
      {
        boost: { key: 2, name: 2, title: 2, description: 1, server: 0.5 },
        filter: kind ? (r) => this.docs[r.id as number].kind === kind : undefined,
      },
    );
    const ranked = hits.map((h) => this.docs[h.id as number]).filter((d) => !exact.includes(d));
    return [...exact, ...ranked].slice(0, limit);
  }
}
