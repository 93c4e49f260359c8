import { PeerIndex, scanDefinition, type DefinitionScan, type ScannedDefinition } from './scan.js';

/** What one server offers, as a client lists it: the definitions the scanner reads. */
export interface ServerDefinitions {
  server: string;
  tools: readonly { name: string; title?: string; description?: string; inputSchema?: unknown; outputSchema?: unknown; annotations?: object }[];
  prompts: readonly { name: string; title?: string; description?: string; arguments?: readonly { name: string; description?: string }[] }[];
  resources: readonly { uri: string; name?: string; title?: string; description?: string }[];
  templates: readonly { uriTemplate: string; name?: string; title?: string; description?: string }[];
  instructions?: string;
}

export interface ScannedEntry {
  server: string;
  kind: 'tool' | 'prompt' | 'resource' | 'resource-template' | 'instructions';
  name: string;
  scan: DefinitionScan;
}

/**
 * Every definition of every server, scanned beside the other servers' tools (what shadowing steers). Prompts,
 * resources and templates are read as what a client shows of them: names, titles, descriptions, arguments.
 */
export function scanServers(servers: readonly ServerDefinitions[]): ScannedEntry[] {
  const index = new PeerIndex(servers.flatMap((s) => s.tools.map((t) => ({ server: s.server, name: t.name, description: t.description }))));
  return servers.flatMap((s) => {
    const peers = index.from(s.server);
    const entry = (kind: ScannedEntry['kind'], name: string, def: ScannedDefinition): ScannedEntry => ({ server: s.server, kind, name, scan: scanDefinition(def, kind === 'tool' ? peers : []) });
    return [
      ...s.tools.map((t) => entry('tool', t.name, t as ScannedDefinition)),
      ...s.prompts.map((p) => entry('prompt', p.name, { name: p.name, title: p.title, description: p.description, inputSchema: { arguments: p.arguments ?? [] } })),
      ...s.resources.map((r) => entry('resource', r.uri, { name: r.name ?? r.uri, title: r.title, description: r.description })),
      ...s.templates.map((t) => entry('resource-template', t.uriTemplate, { name: t.name ?? t.uriTemplate, title: t.title, description: t.description })),
      ...(s.instructions ? [entry('instructions', s.server, { name: 'instructions', description: s.instructions })] : []),
    ];
  });
}
