import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PeerTool, ScannedDefinition } from '../../src/definitions/scan.js';

/**
 * The labelled corpora of tool definitions the definition scanner is measured on (test/definitions/corpora.test.ts
 * and bench/definition-scan.ts), read as a client would see each case: its tools (names, descriptions, schemas,
 * annotations) and the other servers' tools beside them. Never the corpora's bookkeeping: labels, categories, and
 * server names (which give the label away in detect_corpus_v1.json) are kept apart. A peer on the case's own server
 * is a sibling, not a peer: sluice knows which server a tool comes from, and naming a sibling ("run import_report
 * first") is ordinary.
 */

export interface Case {
  id: string;
  malicious: boolean;
  category: string;
  /** Hard negatives: the attack they look like. */
  resembles?: string;
  /** The case's tools, each with its server when the case has several. */
  tools: { def: ScannedDefinition; server?: string }[];
  /** Tools of other servers the same client sees. */
  peers: PeerTool[];
}

export interface Corpus {
  name: string;
  cases: Case[];
}

const DIR = fileURLToPath(new URL('../fixtures/tool-poisoning/', import.meta.url));
const read = (file: string) => JSON.parse(readFileSync(DIR + file, 'utf8')) as Record<string, unknown>;

interface RawPeer {
  server: string;
  tool: { name: string; description?: string };
}

const peersOf = (peers: RawPeer[] | undefined, own?: string): PeerTool[] =>
  (peers ?? []).filter((p) => p.server !== own).map((p) => ({ server: p.server, name: p.tool.name, description: p.tool.description }));

function security(file: string, name: string): Corpus {
  const entries = read(file).entries as { id: string; label: string; category: string; description: string }[];
  const hard = (e: { id: string }) => /^hn_(.+)_\d+$/.exec(e.id)?.[1];
  return { name, cases: entries.map((e) => ({ id: e.id, malicious: e.label === 'malicious', category: e.category, resembles: hard(e), tools: [{ def: { name: 'tool', description: e.description } }], peers: [] })) };
}

function detect(): Corpus {
  const entries = read('upstream/detect_corpus_v1.json').entries as { id: string; label: string; category: string; resembles?: string; server: string; tool: ScannedDefinition & { input_schema?: unknown }; peers?: RawPeer[] }[];
  return {
    name: 'detect_corpus_v1',
    cases: entries.map((e) => ({
      id: e.id,
      malicious: e.label === 'malicious',
      category: e.category,
      resembles: e.resembles,
      tools: [{ def: { name: e.tool.name, description: e.tool.description, inputSchema: e.tool.input_schema } }],
      peers: peersOf(e.peers, e.server),
    })),
  };
}

/** promptguard-mcp: every tool of a case's document; tools of different servers in one document are each other's peers. */
function promptguard(): Corpus {
  const cases = read('upstream/promptguard-mcp_corpus.json').cases as { id: string; malicious: boolean; expect?: { category: string }; doc: { tools?: ScannedDefinition[]; mcpServers?: Record<string, { tools?: ScannedDefinition[] }> } }[];
  return {
    name: 'promptguard-mcp',
    cases: cases.map((c) => {
      const servers = Object.entries(c.doc.mcpServers ?? {}).map(([server, s]) => ({ server, tools: s.tools ?? [] }));
      const tools = [...(c.doc.tools ?? []).map((def) => ({ def })), ...servers.flatMap((s) => s.tools.map((def) => ({ def, server: s.server })))];
      const peers = servers.flatMap((s) => s.tools.map((t) => ({ server: s.server, name: t.name, description: t.description })));
      return { id: c.id, malicious: c.malicious, category: c.expect?.category ?? 'benign', tools, peers };
    }),
  };
}

function own(): Corpus | undefined {
  if (!existsSync(DIR + 'sluice_corpus_v1.json')) return undefined;
  const entries = read('sluice_corpus_v1.json').entries as { id: string; label: string; category: string; resembles?: string; tool: ScannedDefinition; peers?: RawPeer[] }[];
  return { name: 'sluice_corpus_v1', cases: entries.map((e) => ({ id: e.id, malicious: e.label === 'malicious', category: e.category, resembles: e.resembles, tools: [{ def: e.tool }], peers: peersOf(e.peers) })) };
}

export function corpora(): Corpus[] {
  return [security('upstream/security_corpus_v1.json', 'security_corpus_v1'), detect(), promptguard(), own()].filter((c): c is Corpus => c !== undefined);
}

/** Whether the scanner holds a case back: any of its tools flagged, each seen beside the other servers' tools. */
export function flagCase(c: Case, scan: (def: ScannedDefinition, peers: PeerTool[]) => { flagged: boolean }): boolean {
  return c.tools.some((t) => scan(t.def, c.peers.filter((p) => p.server !== t.server)).flagged);
}

export interface Rates {
  corpus: string;
  group: string;
  flagged: number;
  of: number;
}

/** Recall per malicious category, false positives per benign category and per look-alike, and overall. */
export function rates(corpus: Corpus, flagged: (c: Case) => boolean): Rates[] {
  const rows = new Map<string, Rates>();
  const add = (group: string, hit: boolean) => {
    const row = rows.get(group) ?? { corpus: corpus.name, group, flagged: 0, of: 0 };
    row.of++;
    if (hit) row.flagged++;
    rows.set(group, row);
  };
  for (const c of corpus.cases) {
    const hit = flagged(c);
    add(c.malicious ? 'malicious (recall)' : 'benign (false positives)', hit);
    add(`${c.malicious ? 'malicious' : 'benign'}: ${c.category}`, hit);
    if (c.resembles) add(`hard negative resembling ${c.resembles}`, hit);
  }
  return [...rows.values()];
}
