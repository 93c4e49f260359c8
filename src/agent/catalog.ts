import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { baseMime, mimeFromUri } from './content/mime.js';
import type { SearchDoc } from './catalog-search.js';
import type { ServerOffer } from './servers.js';

export type EntryKind = 'resource' | 'template' | 'prompt';

/** One thing the model may ask for: a resource, a resource template or a prompt; searchable by what it says. */
export interface CatalogEntry extends SearchDoc {
  kind: EntryKind;
  /** What the model passes back: the URI, the template, or the prompt's (prefixed) name. */
  key: string;
  /** The line the model sees. */
  line: string;
}

export interface Catalog {
  entries: CatalogEntry[];
  /** The system prompt's catalog section. */
  text: string;
  tokens: number;
  /** Over budget: the section is a summary and the model searches with search_catalog. */
  summarised: boolean;
}

export const DEFAULT_CATALOG_BUDGET = 1500;

/** Sizes as a person rounds them: the catalog pays in tokens for every digit. */
function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A one-line description: the first sentence or line, capped, because the catalog pays per entry. */
export function oneLine(text: string | undefined, max = 100): string {
  if (!text) return '';
  const first = text.split(/\n|(?<=\.)\s/)[0].trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

function resourceLine(r: ServerOffer['resources'][number]): string {
  const tail = r.uri.split('/').pop() ?? '';
  const name = r.name && r.name !== tail && r.name !== r.uri ? ` "${r.name}"` : '';
  const description = oneLine(r.description, 80);
  // The type is left out when the URI's extension already says it.
  const mime = r.mimeType && baseMime(r.mimeType) !== mimeFromUri(r.uri) ? r.mimeType : undefined;
  const meta = [mime, typeof r.size === 'number' ? humanSize(r.size) : undefined].filter(Boolean).join(', ');
  return `- ${r.uri}${name}${description ? `: ${description}` : ''}${meta ? ` (${meta})` : ''}`;
}

function templateLine(t: ServerOffer['templates'][number]): string {
  const vars = [...t.uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => m[1].split(',')).map((v) => v.replace(/\*$/, ''));
  const description = oneLine(t.description, 80);
  return `- ${t.uriTemplate}${description ? `: ${description}` : ''} (fill ${vars.map((v) => `{${v}}`).join(', ')} and pass the URI to read_resource)`;
}

function promptLine(name: string, p: ServerOffer['prompts'][number]): string {
  const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? '*' : ''}`).join(', ');
  const description = oneLine(p.description, 80);
  return `- ${name}(${args})${description ? `: ${description}` : ''}`;
}

/** Every entry of every server, in server order, with the prompt names the model must use. */
export function catalogEntries(offers: readonly ServerOffer[], promptName: (server: string, name: string) => string): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const o of offers) {
    for (const r of o.resources) entries.push({ kind: 'resource', server: o.name, key: r.uri, line: resourceLine(r), name: r.name, title: r.title, description: r.description });
    for (const t of o.templates) entries.push({ kind: 'template', server: o.name, key: t.uriTemplate, line: templateLine(t), name: t.name, title: t.title, description: t.description });
    for (const p of o.prompts) {
      const name = promptName(o.name, p.name);
      const args = (p.arguments ?? []).map((a) => a.name).join(' ');
      entries.push({ kind: 'prompt', server: o.name, key: name, line: promptLine(name, p), name: p.name, title: p.title, description: [p.description, args].filter(Boolean).join(' ') });
    }
  }
  return entries;
}

const HEADER = [
  '## Resources and prompts available on demand',
  'Nothing below has been read yet. To read a resource, call read_resource with its exact URI (or a URI built',
  'from a template). To use a prompt, call invoke_prompt with its name and arguments (* marks required ones).',
  'Do not assume what a resource says before you have read it.',
].join('\n');

/**
 * The catalog section of the system prompt: every entry while it fits the token budget; past it, a summary
 * of what each server offers and the search_catalog tool, so the prompt stays the same size however many
 * entries there are. Never any content: that arrives only when the model asks for it.
 */
export function buildCatalog(entries: CatalogEntry[], offers: readonly ServerOffer[], budget = DEFAULT_CATALOG_BUDGET): Catalog {
  if (entries.length === 0) return { entries, text: '', tokens: 0, summarised: false };
  const sections: string[] = [HEADER];
  for (const [kind, title] of [['resource', 'Resources'], ['template', 'Resource templates'], ['prompt', 'Prompts']] as const) {
    const lines = entries.filter((e) => e.kind === kind).map((e) => e.line);
    if (lines.length > 0) sections.push(`### ${title}\n${lines.join('\n')}`);
  }
  const full = sections.join('\n\n');
  const tokens = countTokens(full);
  if (tokens <= budget) return { entries, text: full, tokens, summarised: false };

  const counts = offers
    .map((o) => {
      const parts = [[o.resources.length, 'resource'], [o.templates.length, 'resource template'], [o.prompts.length, 'prompt']]
        .filter(([n]) => (n as number) > 0)
        .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
      return parts.length > 0 ? `- ${o.name}: ${parts.join(', ')}` : undefined;
    })
    .filter(Boolean);
  const summary = [
    '## Resources and prompts available on demand',
    `There are ${entries.length} entries, too many to list here. Call search_catalog with a few words to find`,
    'resources, templates and prompts; then read_resource or invoke_prompt what you need. Nothing has been read yet.',
    ...counts,
  ].join('\n');
  return { entries, text: summary, tokens: countTokens(summary), summarised: true };
}
