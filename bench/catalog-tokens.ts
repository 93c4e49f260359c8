/**
 * System-prompt size, in real o200k tokens: the naive approach (every resource's content pasted into the
 * prompt) against sluice's catalog (URIs and descriptions only, a summary past the budget), for
 * server-everything and for generated servers with 10 to 10,000 resources of 2 KB each.
 *
 *   node --import tsx bench/catalog-tokens.ts
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EVERYTHING } from './paths.js';
import { buildCatalog, catalogEntries, DEFAULT_CATALOG_BUDGET, type ServerOffer } from './sluice-internals.js';

export interface CatalogTokens {
  server: string;
  resources: number;
  naive: number;
  catalog: number;
  summarised: boolean;
  perResource: number;
  saving: number;
}

/** The naive prompt, as integrations commonly build it: a heading per resource and its content in full. */
function naivePrompt(items: { uri: string; name: string; description?: string; text: string }[]): string {
  return ['## Available Resources', ...items.map((r) => `### Resource: ${r.name}\nURI: ${r.uri}\n${r.description ? `Description: ${r.description}\n` : ''}Content:\n${r.text}`)].join('\n\n');
}

function measure(server: string, offer: ServerOffer, contents: string[]): CatalogTokens {
  const entries = catalogEntries([offer], (_s, n) => n);
  const catalog = buildCatalog(entries, [offer], DEFAULT_CATALOG_BUDGET);
  const naive = countTokens(naivePrompt(offer.resources.map((r, i) => ({ uri: r.uri, name: r.name, description: r.description, text: contents[i] }))));
  const n = offer.resources.length;
  // What each resource adds: the tokens of its catalog line (the fixed header is paid once).
  const lines = countTokens(entries.filter((e) => e.kind === 'resource').map((e) => e.line).join('\n'));
  return { server, resources: n, naive, catalog: catalog.tokens, summarised: catalog.summarised, perResource: catalog.summarised ? NaN : lines / n, saving: 1 - catalog.tokens / naive };
}

/** Deterministic English-like text of `bytes` bytes, different per resource. */
function document(i: number, bytes: number): string {
  const words = ['gateway', 'policy', 'resource', 'audit', 'session', 'label', 'upstream', 'catalog', 'prompt', 'token', 'request', 'server', 'client', 'approval', 'record'];
  let out = `Document ${i}.`;
  for (let k = 0; out.length < bytes; k++) out += ` ${words[(i * 7 + k * 13) % words.length]}${k % 11 === 10 ? '.' : ''}`;
  return out.slice(0, bytes);
}

function generated(count: number): { offer: ServerOffer; contents: string[] } {
  const resources = Array.from({ length: count }, (_, i) => ({
    uri: `docs://kb/doc-${String(i + 1).padStart(5, '0')}.md`,
    name: `doc-${String(i + 1).padStart(5, '0')}.md`,
    mimeType: 'text/markdown',
    size: 2048,
  }));
  const offer = { name: `generated-${count}`, client: undefined as never, tools: [], resources, templates: [], prompts: [] } as unknown as ServerOffer;
  return { offer, contents: resources.map((_, i) => document(i, 2048)) };
}

async function everything(): Promise<{ offer: ServerOffer; contents: string[] }> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
  const { resources } = await client.listResources();
  const { resourceTemplates } = await client.listResourceTemplates();
  const { prompts } = await client.listPrompts();
  const contents = await Promise.all(resources.map(async (r) => ((await client.readResource({ uri: r.uri })).contents[0] as { text?: string }).text ?? ''));
  await client.close();
  return { offer: { name: 'everything', client: undefined as never, tools: [], resources, templates: resourceTemplates, prompts } as unknown as ServerOffer, contents };
}

export async function measureCatalogTokens(): Promise<CatalogTokens[]> {
  const rows: CatalogTokens[] = [];
  const e = await everything();
  rows.push(measure('server-everything', e.offer, e.contents));
  for (const n of [10, 100, 1000, 10_000]) {
    const g = generated(n);
    rows.push(measure(`generated, ${n.toLocaleString('en-US')} × 2 KB`, g.offer, g.contents));
  }
  return rows;
}

export function catalogTable(rows: CatalogTokens[]): string {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  return [
    '| server | resources | naive prompt tokens | sluice catalog tokens | tokens per resource (its line) | fewer tokens |',
    '| :--- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.server} | ${fmt(r.resources)} | ${fmt(r.naive)} | ${fmt(r.catalog)}${r.summarised ? ' (summary + search_catalog)' : ''} | ${r.summarised ? '—' : r.perResource.toFixed(1)} | ${(r.saving * 100).toFixed(2)}% |`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(catalogTable(await measureCatalogTokens()));
}
