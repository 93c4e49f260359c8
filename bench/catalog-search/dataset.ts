/**
 * The catalog-search data set, frozen in test/fixtures/catalog-search/: a synthetic but realistic MCP catalog of
 * 10,000 entries (resources, templates, prompts and tools of 18 servers, near-duplicates first) and the questions
 * asked of it, each naming the one entry that answers it. The catalog was made by ./generator/ (see its
 * make-catalog.ts); the bench reads the frozen file and never runs the generator, and a unit test holds the file
 * to the generator's output (test/unit/bench-catalog.test.ts).
 */
import { readFileSync } from 'node:fs';

export interface SearchDoc {
  kind: 'resource' | 'template' | 'prompt' | 'tool';
  server: string; // e.g. 'wiki', 'github', 'postgres', 'files', 'crm', 'monitoring', 'calendar', ...
  key: string; // resource URI, template URI (RFC 6570, e.g. 'crm://customers/{id}/invoices'), prompt name, or tool name
  name?: string; // MCP name (resource name, template name; for prompts/tools same as key)
  title?: string;
  description?: string; // one or two sentences, as real MCP servers write them
  mimeType?: string; // resources only, optional
}

export type Kind = SearchDoc['kind'];

export const KINDS: readonly Kind[] = ['resource', 'template', 'prompt', 'tool'];

export interface Question {
  query: string;
  expect: string;
  style: 'keywords' | 'question' | 'typo' | 'paraphrase';
}

const FIXTURES = new URL('../../test/fixtures/catalog-search/', import.meta.url);
export const CATALOG_FILE = new URL('catalog.json', FIXTURES);
export const QUESTIONS_FILE = new URL('questions.json', FIXTURES);

/** How many entries the frozen catalog holds: every size the bench asks for is a prefix of it. */
export const FROZEN_SIZE = 10_000;

/** The catalog file's layout: a JSON array, one entry a line, so a change to the generator shows as a readable diff. */
export function catalogText(docs: readonly SearchDoc[]): string {
  return `[\n${docs.map((d) => JSON.stringify(d)).join(',\n')}\n]\n`;
}

let frozen: SearchDoc[] | undefined;

/** The first `size` entries of the frozen catalog (the question targets come first, so every size has them). */
export function frozenCatalog(size: number): SearchDoc[] {
  if (!Number.isInteger(size) || size < 1 || size > FROZEN_SIZE) throw new RangeError(`catalog size must be an integer from 1 to ${FROZEN_SIZE}, got ${size}`);
  frozen ??= JSON.parse(readFileSync(CATALOG_FILE, 'utf8')) as SearchDoc[];
  return frozen.slice(0, size).map((d) => ({ ...d }));
}

export function loadQuestions(): Question[] {
  return JSON.parse(readFileSync(QUESTIONS_FILE, 'utf8')) as Question[];
}
