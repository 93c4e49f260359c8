import { EventEmitter } from 'node:events';
import type { LanguageModel, ModelMessage } from 'ai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ServerConfig } from '../config/schema.js';
import { buildCatalog, catalogEntries, DEFAULT_CATALOG_BUDGET, oneLine, type Catalog } from './catalog.js';
import { toolResultToOutput } from './content/convert.js';
import { resolveModel, type ModelChoice } from './model.js';
import { runTurn, type AgentEvent, type AgentTool, type Approve, type ToolRun } from './loop.js';
import { AgentServers, type ServerOffer } from './servers.js';
import { syntheticTools } from './synthetic.js';
import { ToolNames } from './tool-names.js';

export interface AgentOptions {
  /** The MCP servers to use: any servers, or one sluice gateway (`{ name, transport: 'http', url, headers }`). */
  servers: ServerConfig[];
  /** A model from `provider:name` (see resolveModel), or an AI SDK model object. */
  model: ModelChoice | GivenModel;
  /** Asked before any tool that is not auto-approved runs; without it, such calls are refused. */
  approve?: Approve;
  /** Run tools annotated read-only without asking (default true); synthetic tools always run. */
  autoApproveReadOnly?: boolean;
  /** Token budget for the resource/prompt catalog in the system prompt (default 1,500). */
  catalogBudget?: number;
  /** Token budget for tool definitions; past it, tools are listed by name and one line (default 4,000). */
  toolBudget?: number;
  /** Cap on one resource's text; unset: whole. */
  maxTextBytes?: number;
  maxSteps?: number;
  /** Extra instructions placed before the catalog. */
  instructions?: string;
}

const BASE_PROMPT = 'You are a helpful assistant with tools from MCP servers. Use the tools when they help; answer plainly when they do not.';

/**
 * An agent: a model, the tools of some MCP servers, and the resources and prompts of those servers offered
 * as a catalog that the model reads on demand through read_resource, invoke_prompt and search_catalog.
 * Keeps the conversation across `ask` calls; emits an event for every step.
 */
export class Agent extends EventEmitter<{ event: [AgentEvent] }> {
  readonly messages: ModelMessage[] = [];
  private readonly names = new ToolNames();
  private readonly alwaysApproved = new Set<string>();
  private tools: AgentTool[] = [];
  catalog!: Catalog;
  system = '';

  private constructor(
    private readonly servers: AgentServers,
    private readonly model: LanguageModel,
    readonly vision: boolean,
    private readonly imagesInToolResults: boolean,
    private readonly options: AgentOptions,
  ) {
    super();
  }

  static async create(options: AgentOptions): Promise<Agent> {
    const resolved = isModelObject(options.model)
      ? { model: options.model.model, vision: options.model.vision ?? false, imagesInToolResults: options.model.imagesInToolResults ?? false }
      : resolveModel(options.model);
    const servers = await AgentServers.connect(options.servers);
    const agent = new Agent(servers, resolved.model, resolved.vision, resolved.imagesInToolResults, options);
    agent.rebuild();
    return agent;
  }

  get offers(): readonly ServerOffer[] {
    return this.servers.offers;
  }

  /** Tool and prompt names carry the server's name when there are several servers. */
  private qualified(server: string, name: string): string {
    return this.servers.offers.length > 1 ? `${server}__${name}` : name;
  }

  /** Rebuilds tools, catalog and system prompt from the servers' current lists. */
  private rebuild(): void {
    const offers = this.servers.offers;
    const entries = catalogEntries(offers, (s, n) => this.qualified(s, n));
    this.catalog = buildCatalog(entries, offers, this.options.catalogBudget ?? DEFAULT_CATALOG_BUDGET);
    const real = this.realTools();
    const compact = countTokens(JSON.stringify(real.map((t) => [t.modelName, t.description, t.inputSchema]))) > (this.options.toolBudget ?? 4000);
    const schemas = new Map(real.map((t) => [t.modelName, { name: t.modelName, description: t.description, inputSchema: t.inputSchema }]));
    if (compact) {
      // Past the budget the model sees names and one line; load_tool_schema gives the rest on demand.
      for (const t of real) {
        t.description = `${oneLine(t.description, 90)} (call load_tool_schema for its arguments)`;
        t.inputSchema = { type: 'object', additionalProperties: true };
      }
    }
    const hasResources = offers.some((o) => o.resources.length > 0 || o.templates.length > 0);
    const hasPrompts = offers.some((o) => o.prompts.length > 0);
    const synthetic = syntheticTools(
      {
        offers: () => this.servers.offers,
        entries: () => this.catalog.entries,
        prompt: (name) => {
          for (const offer of this.servers.offers) {
            const prompt = offer.prompts.find((p) => this.qualified(offer.name, p.name) === name);
            if (prompt) return { offer, prompt };
          }
          return undefined;
        },
        vision: this.vision,
        imagesInToolResults: this.imagesInToolResults,
        maxTextBytes: this.options.maxTextBytes,
        toolSchema: (name) => schemas.get(name),
      },
      { resources: hasResources, prompts: hasPrompts, search: this.catalog.summarised, toolSchemas: compact },
    );
    this.tools = [...real, ...synthetic];
    const instructions = offers.map((o) => (o.instructions ? `### ${o.name}\n${o.instructions}` : '')).filter(Boolean);
    this.system = [this.options.instructions ?? BASE_PROMPT, instructions.length ? `## Server notes\n${instructions.join('\n')}` : '', this.catalog.text].filter(Boolean).join('\n\n');
  }

  private realTools(): AgentTool[] {
    const auto = this.options.autoApproveReadOnly ?? true;
    return this.servers.offers.flatMap((offer) =>
      offer.tools.map((t): AgentTool => {
        const display = this.qualified(offer.name, t.name);
        return {
          modelName: this.names.add(display),
          displayName: display,
          description: t.description ?? t.title ?? t.name,
          inputSchema: t.inputSchema as Record<string, unknown>,
          autoApproved: auto && t.annotations?.readOnlyHint === true,
          run: async (args): Promise<ToolRun> => {
            const result = await offer.client.callTool({ name: t.name, arguments: args });
            const out = await toolResultToOutput(result as never, {
              vision: this.vision,
              maxTextBytes: this.options.maxTextBytes,
              images: this.imagesInToolResults ? 'inline' : 'separate',
              source: `the result of ${display}`,
            });
            const followUp: ModelMessage[] = out.attachments.length > 0 ? [{ role: 'user', content: out.attachments }] : [];
            const first = out.output.type === 'text' || out.output.type === 'error-text' ? out.output.value : `${display} returned content`;
            return { output: out.output, followUp, isError: out.isError, summary: String(first).split('\n')[0].slice(0, 120) };
          },
        };
      }),
    );
  }

  /** The tools the model is offered (names as the model sees them). */
  get toolNames(): string[] {
    return this.tools.map((t) => t.modelName);
  }

  /** One user turn; returns the model's final answer. */
  async ask(prompt: string, abortSignal?: AbortSignal): Promise<string> {
    // A server said its lists changed: the catalog and tools are rebuilt before the model sees them again.
    if (await this.servers.refresh()) this.rebuild();
    this.messages.push({ role: 'user', content: prompt });
    return runTurn({
      model: this.model,
      system: this.system,
      tools: this.tools,
      messages: this.messages,
      approve: this.options.approve ?? (async () => 'no'),
      alwaysApproved: this.alwaysApproved,
      maxSteps: this.options.maxSteps ?? 20,
      emit: (e) => this.emit('event', e),
      abortSignal,
    });
  }

  async close(): Promise<void> {
    await this.servers.close();
  }
}

type GivenModel = { model: LanguageModel; vision?: boolean; imagesInToolResults?: boolean };

function isModelObject(m: ModelChoice | GivenModel): m is GivenModel {
  return typeof m.model === 'object' && m.model !== null;
}

/** The library entry point: `const agent = await createAgent({ servers, model, approve })`. */
export function createAgent(options: AgentOptions): Promise<Agent> {
  return Agent.create(options);
}
