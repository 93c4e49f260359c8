import { PeerIndex, scanDefinition, type DefinitionScan, type ScannedDefinition } from './scan.js';
import type { DefinitionKind } from './pin.js';

/**
 * What one server offers, exactly as it listed it — entries are untrusted data, whatever their shape — read by the
 * definition scanner the way a client shows it: the gateway's guard at discovery and `sluice definitions scan`
 * both come through here.
 */
export interface ServerOffer {
  server: string;
  tools: readonly Record<string, unknown>[];
  prompts: readonly Record<string, unknown>[];
  resources: readonly Record<string, unknown>[];
  resourceTemplates: readonly Record<string, unknown>[];
  instructions?: string;
}

export interface ScannedEntry {
  server: string;
  kind: DefinitionKind;
  name: string;
  scan: DefinitionScan;
}

/** Instructions are one text per server, pinned and listed under this name. */
export const INSTRUCTIONS = 'instructions';

/** The key each kind of entry is named by in its list. */
const KEYS: Record<Exclude<DefinitionKind, 'instructions'>, { list: 'tools' | 'prompts' | 'resources' | 'resourceTemplates'; key: string }> = {
  tool: { list: 'tools', key: 'name' },
  prompt: { list: 'prompts', key: 'name' },
  resource: { list: 'resources', key: 'uri' },
  'resource-template': { list: 'resourceTemplates', key: 'uriTemplate' },
};

/** Every server's definitions scanned, each tool beside the other servers' tools (what shadowing steers). */
export function scanServers(servers: readonly ServerOffer[]): ScannedEntry[] {
  const index = peerIndex(servers);
  return servers.flatMap((s) => [...entriesOf(s)].map(([kind, name, entry]) => ({ server: s.server, kind, name, scan: scanEntry(kind, name, entry, index.from(s.server)) })));
}

/** Every definition of one server as [kind, name, entry]; instructions as their text. */
export function* entriesOf(offered: ServerOffer): Generator<[DefinitionKind, string, Record<string, unknown> | string]> {
  for (const [kind, { list, key }] of Object.entries(KEYS) as [Exclude<DefinitionKind, 'instructions'>, (typeof KEYS)['tool']][]) {
    for (const entry of offered[list]) {
      const name = entry[key];
      if (typeof name === 'string') yield [kind, name, entry];
    }
  }
  if (offered.instructions) yield ['instructions', INSTRUCTIONS, offered.instructions];
}

export function peerIndex(servers: readonly ServerOffer[]): PeerIndex {
  return new PeerIndex(servers.flatMap((s) => s.tools.flatMap((t) => (typeof t.name === 'string' ? [{ server: s.server, name: t.name, description: text(t.description) }] : []))));
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** What a client shows of an entry, as the scanner reads it: strings only, whatever the server sent. */
function scannedOf(kind: DefinitionKind, name: string, entry: Record<string, unknown> | string): ScannedDefinition {
  if (typeof entry === 'string') return { name: INSTRUCTIONS, description: entry };
  const base = { name: text(entry.name) ?? name, title: text(entry.title), description: text(entry.description) };
  if (kind === 'tool') {
    const annotations = entry.annotations !== null && typeof entry.annotations === 'object' && !Array.isArray(entry.annotations) ? (entry.annotations as ScannedDefinition['annotations']) : undefined;
    return { ...base, inputSchema: entry.inputSchema, outputSchema: entry.outputSchema, annotations };
  }
  if (kind === 'prompt') return { ...base, inputSchema: { arguments: Array.isArray(entry.arguments) ? entry.arguments : [] } };
  return base;
}

/** One entry scanned; a scanner that fails on some input says "flagged", never "clean". */
export function scanEntry(kind: DefinitionKind, name: string, entry: Record<string, unknown> | string, peers: PeerIndex): DefinitionScan {
  try {
    return scanDefinition(scannedOf(kind, name, entry), kind === 'tool' ? peers : []);
  } catch (err) {
    return { findings: [{ rule: 'suspicious-parameter', severity: 'high', where: 'definition', evidence: `the scanner could not read it: ${(err as Error).message}`.slice(0, 200) }], risk: 'high', flagged: true };
  }
}
