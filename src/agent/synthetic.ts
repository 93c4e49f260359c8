import type { ModelMessage } from 'ai';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { templateMatcher } from '../protocol/uri-template.js';
import type { CatalogEntry } from './catalog.js';
import type { SearchDoc, SearchKind } from './catalog-search.js';
import { contentBlockToParts, resourceToParts } from './content/convert.js';
import { partsToToolOutput } from './content/parts-to-tool-output.js';
import type { AgentTool, ToolRun } from './loop.js';
import type { ServerOffer } from './servers.js';
import { INSTRUCTIONS_URI } from './notes.js';
import { closestMatches, normaliseUri } from './uri.js';

export interface SyntheticContext {
  offers: () => readonly ServerOffer[];
  entries: () => readonly CatalogEntry[];
  /** The catalog (and tools) searched by words: best first, each with the line the model sees. */
  search: (query: string, limit: number, kind?: SearchKind) => (SearchDoc & { line: string })[];
  /** The prompt behind a name the model uses (`<server>__<prompt>` with several servers). */
  prompt: (name: string) => { offer: ServerOffer; prompt: ServerOffer['prompts'][number] } | undefined;
  /** A server's instructions whole, when the system prompt carries them cut. */
  instructions: (server: string) => string | undefined;
  vision: boolean;
  imagesInToolResults: boolean;
  maxTextBytes?: number;
  /** Full definitions of tools shown only by name and one line (big tool sets). */
  toolSchema?: (name: string) => Record<string, unknown> | undefined;
}

/** The server that owns a URI the model asked for, and the URI as that server spelled it. */
function locate(ctx: SyntheticContext, asked: string): { offer: ServerOffer; uri: string } | undefined {
  const wanted = normaliseUri(asked);
  for (const offer of ctx.offers()) {
    const listed = offer.resources.find((r) => normaliseUri(r.uri) === wanted);
    if (listed) return { offer, uri: listed.uri };
  }
  for (const offer of ctx.offers()) {
    if (offer.templates.some((t) => templateMatcher(t.uriTemplate).test(asked.trim()))) return { offer, uri: asked.trim() };
  }
  return undefined;
}

const text = (value: string, isError = false): ToolRun => ({ output: isError ? { type: 'error-text', value } : { type: 'text', value }, isError, summary: value.split('\n')[0].slice(0, 120) });

function readResourceTool(ctx: SyntheticContext): AgentTool {
  return {
    modelName: 'read_resource',
    displayName: 'read_resource',
    autoApproved: true,
    description:
      'Read the full contents of an MCP resource by its URI. Call this when you need what a resource listed in the catalog ' +
      '(or a URI built from a resource template) says, or to follow a resource link a tool returned. Text arrives whole; ' +
      'images, PDFs and other files arrive in a form you can use. Use offset (bytes) to continue a text that was cut.',
    inputSchema: {
      type: 'object',
      properties: {
        uri: { type: 'string', description: 'The exact URI of the resource, e.g. from the catalog.' },
        offset: { type: 'integer', minimum: 0, description: 'Start at this byte of the text (to read on after a cut).' },
        length: { type: 'integer', minimum: 1, description: 'Read at most this many bytes of the text.' },
      },
      required: ['uri'],
    },
    async run(args) {
      const asked = typeof args.uri === 'string' ? args.uri : '';
      if (!asked) return text('read_resource needs a "uri".', true);
      if (asked.startsWith(INSTRUCTIONS_URI)) {
        const server = asked.slice(INSTRUCTIONS_URI.length);
        const whole = ctx.instructions(server);
        return whole ? { ...text(whole), summary: `instructions of ${server}` } : text(`No instructions of a server named ${server} were cut.`, true);
      }
      const found = locate(ctx, asked);
      if (!found) {
        const candidates = ctx.offers().flatMap((o) => [...o.resources.map((r) => r.uri), ...o.templates.map((t) => t.uriTemplate)]);
        const near = closestMatches(asked, candidates);
        return text(`No resource has the URI ${asked}.${near.length ? ` Closest: ${near.join(', ')}.` : ''} Use search_catalog or the catalog for exact URIs.`, true);
      }
      const read = await found.offer.client.readResource({ uri: found.uri });
      const parts = await resourceToParts(read.contents, {
        vision: ctx.vision,
        maxTextBytes: ctx.maxTextBytes,
        uri: found.uri,
        offset: typeof args.offset === 'number' ? args.offset : undefined,
        length: typeof args.length === 'number' ? args.length : undefined,
      });
      const out = partsToToolOutput(parts, { images: ctx.imagesInToolResults ? 'inline' : 'separate', source: `the resource ${found.uri}` });
      return withAttachments(out, `read ${found.uri}`);
    },
  };
}

/** Images a provider cannot take inside a tool result travel in a user turn right after the results. */
function withAttachments(out: ReturnType<typeof partsToToolOutput>, summary: string): ToolRun {
  const followUp: ModelMessage[] = out.attachments.length > 0 ? [{ role: 'user', content: out.attachments }] : [];
  return { output: out.output, followUp, isError: out.isError, summary };
}

function invokePromptTool(ctx: SyntheticContext): AgentTool {
  return {
    modelName: 'invoke_prompt',
    displayName: 'invoke_prompt',
    autoApproved: true,
    description:
      'Use a prompt template from the catalog: its messages are added to this conversation as real turns, which you then follow. ' +
      'Pass the prompt name and its arguments (required ones are marked * in the catalog).',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The prompt name, as in the catalog.' },
        arguments: { type: 'object', additionalProperties: { type: 'string' }, description: 'Argument values, all strings.' },
      },
      required: ['name'],
    },
    async run(args) {
      const name = typeof args.name === 'string' ? args.name : '';
      const found = ctx.prompt(name);
      if (!found) {
        const near = closestMatches(name, ctx.entries().filter((e) => e.kind === 'prompt').map((e) => e.key));
        return text(`There is no prompt named ${name}.${near.length ? ` Closest: ${near.join(', ')}.` : ''}`, true);
      }
      const given = (args.arguments && typeof args.arguments === 'object' ? args.arguments : {}) as Record<string, unknown>;
      const missing = (found.prompt.arguments ?? []).filter((a) => a.required && (given[a.name] === undefined || given[a.name] === '')).map((a) => a.name);
      if (missing.length > 0) {
        const all = (found.prompt.arguments ?? []).map((a) => `${a.name}${a.required ? ' (required)' : ''}${a.description ? `: ${a.description}` : ''}`);
        return text(`The prompt ${name} needs ${missing.map((m) => `"${m}"`).join(', ')}. Its arguments: ${all.join('; ')}.`, true);
      }
      const strings = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      const result = await found.offer.client.getPrompt({ name: found.prompt.name, arguments: strings });
      const turns = await promptTurns(result, ctx);
      return { output: { type: 'text', value: `The prompt ${name} follows as ${turns.length} conversation turn${turns.length === 1 ? '' : 's'}; treat them as the conversation's next messages.` }, followUp: turns, summary: `${turns.length} turns from ${name}` };
    },
  };
}

/** A prompt's messages as conversation turns with their own roles, embedded resources and images included. */
async function promptTurns(result: GetPromptResult, ctx: SyntheticContext): Promise<ModelMessage[]> {
  const turns: ModelMessage[] = [];
  for (const m of result.messages) {
    const parts = await contentBlockToParts(m.content, { vision: ctx.vision, maxTextBytes: ctx.maxTextBytes });
    if (m.role === 'assistant') {
      // Assistant turns carry text only: images from a prompt go into the user side, described.
      turns.push({ role: 'assistant', content: parts.map((p) => (p.type === 'text' ? p : { type: 'text' as const, text: `[image: ${p.mediaType ?? 'image'}]` })) });
    } else {
      turns.push({ role: 'user', content: parts });
    }
  }
  return turns;
}

const SEARCH_KINDS: readonly SearchKind[] = ['resource', 'template', 'prompt', 'tool'];

function searchCatalogTool(ctx: SyntheticContext): AgentTool {
  return {
    modelName: 'search_catalog',
    displayName: 'search_catalog',
    autoApproved: true,
    description: 'Find resources, resource templates, prompts and tools by a few words or a question (the catalog is too large to list in full). Typos and word beginnings are fine.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for in URIs, names, titles and descriptions.' },
        kind: { type: 'string', enum: [...SEARCH_KINDS], description: 'Only this kind of entry.' },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
      required: ['query'],
    },
    async run(args) {
      const query = typeof args.query === 'string' ? args.query : '';
      const kind = SEARCH_KINDS.find((k) => k === args.kind);
      const limit = typeof args.limit === 'number' && args.limit >= 1 ? Math.min(50, Math.floor(args.limit)) : 20;
      const hits = ctx.search(query, limit, kind);
      if (hits.length === 0) return text(`Nothing in the catalog matches "${query}". Try other words.`);
      return text(`${hits.length} match${hits.length === 1 ? '' : 'es'}, best first:\n${hits.map((h) => `${h.line} (${h.kind}, server ${h.server})`).join('\n')}`);
    },
  };
}

function loadToolSchemaTool(ctx: SyntheticContext): AgentTool {
  return {
    modelName: 'load_tool_schema',
    displayName: 'load_tool_schema',
    autoApproved: true,
    description: 'Get the full description and input schema of tools that are listed only by name and one line. Call it before using such a tool.',
    inputSchema: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1 } }, required: ['names'] },
    async run(args) {
      const names = Array.isArray(args.names) ? args.names.filter((n): n is string => typeof n === 'string') : [];
      const found = names.map((n) => [n, ctx.toolSchema?.(n)] as const);
      return text(found.map(([n, s]) => (s ? `${n}:\n${JSON.stringify(s, null, 1)}` : `${n}: no such tool`)).join('\n\n'));
    },
  };
}

/** The synthetic tools worth offering: only what the servers' offers make useful. */
export function syntheticTools(ctx: SyntheticContext, options: { resources: boolean; prompts: boolean; search: boolean; toolSchemas: boolean }): AgentTool[] {
  const tools: AgentTool[] = [];
  if (options.resources) tools.push(readResourceTool(ctx));
  if (options.prompts) tools.push(invokePromptTool(ctx));
  if (options.search) tools.push(searchCatalogTool(ctx));
  if (options.toolSchemas) tools.push(loadToolSchemaTool(ctx));
  return tools;
}
