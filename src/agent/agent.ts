import { EventEmitter } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ElicitRequestParams, ElicitResult, Root } from '@modelcontextprotocol/client';
import type { LanguageModel, ModelMessage } from 'ai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CatalogIndex, type SearchDoc } from './catalog-search.js';
import { buildCatalog, catalogEntries, DEFAULT_CATALOG_BUDGET, oneLine, type Catalog } from './catalog.js';
import { toolResultToOutput } from './content/convert.js';
import { formFields, formProblems, type Elicit } from './elicitation.js';
import { resolveModel, type ModelChoice } from './model.js';
import { runTurn, type AgentEvent, type AgentTool, type Approve, type StepOffer, type ToolRun, type TurnResult } from './loop.js';
import { DEFAULT_NOTES_BUDGET, serverNotes, type ServerNotes } from './notes.js';
import { answerSampling, samplingRefused, type ApproveSampling } from './sampling.js';
import { AgentConfigError, namedServers, type AgentServer, type NamedServer } from './server-spec.js';
import { AgentServers, type ServerFailure, type ServerOffer } from './servers.js';
import { syntheticTools } from './synthetic.js';
import { ToolNames } from './tool-names.js';

export type { AgentEvent, ApprovalAnswer, Approve, ElicitationEvent, SamplingEvent, StopReason, TurnResult } from './loop.js';
export type { Elicit, ElicitationRequest, FormField } from './elicitation.js';
export { formFields, parseAnswer, defaultAnswers } from './elicitation.js';
export type { ApproveSampling, SamplingRequest } from './sampling.js';
export type { AgentServer, CommandServer, RemoteServer } from './server-spec.js';
export type { ServerFailure } from './servers.js';
export type { ModelChoice } from './model.js';
export { AgentConfigError } from './server-spec.js';
export { ModelConfigError } from './model.js';
export { ModelError } from './errors.js';

/** Everything about an agent except where its servers are. */
export interface AgentSettings {
  /** A model from `provider:name` (see resolveModel), or an AI SDK model object. */
  model: ModelChoice | GivenModel;
  /** Asked before any tool that is not auto-approved runs; without it, such calls are refused. */
  approve?: Approve;
  /** Run tools annotated read-only without asking (default true); synthetic tools always run. */
  autoApproveReadOnly?: boolean;
  /** Token budget of the system prompt's server notes and resource/prompt catalog together (default 1,500). */
  catalogBudget?: number;
  /** Tokens of one server's instructions in the system prompt, at most (default 300); the rest on request. */
  instructionsBudget?: number;
  /** Token budget for tool definitions; past it, tools are listed by name and one line (default 4,000). */
  toolBudget?: number;
  /** Cap on one resource's text; unset: whole. */
  maxTextBytes?: number;
  /** Model requests in one turn, at most (default 20); a turn that reaches it ends with stoppedBy 'step-limit'. */
  maxSteps?: number;
  /** Extra instructions placed before the catalog. */
  instructions?: string;
  /** Servers may ask the agent's model for completions (MCP sampling) when this approves; else not offered. */
  approveSampling?: ApproveSampling;
  /** Servers may ask the user for input (MCP elicitation, forms and URLs) through this; else not offered. */
  elicit?: Elicit;
  /** Directories offered to servers as roots (MCP roots); unset: roots are not offered. */
  roots?: string[];
  /** How long one server may take to start and answer (default 30 s); a slower one is left out. */
  connectTimeoutMs?: number;
}

export interface AgentOptions extends AgentSettings {
  /** The MCP servers to use, as `mcpServers` entries are written: `{ name: { command, args } | { url } }`. */
  servers: Record<string, AgentServer>;
}

/** An AI SDK model object, with what the agent cannot ask it: whether it sees images. */
export interface GivenModel {
  model: LanguageModel;
  vision?: boolean;
  imagesInToolResults?: boolean;
}

const BASE_PROMPT = 'You are a helpful assistant with tools from MCP servers. Use the tools when they help; answer plainly when they do not.';
const DEFAULT_MAX_STEPS = 20;

/**
 * An agent: a model, the tools of some MCP servers, and the resources and prompts of those servers offered
 * as a catalog that the model reads on demand through read_resource, invoke_prompt and search_catalog.
 * Keeps the conversation across `ask` calls; emits an event for every step. Servers that could not be started
 * are left out and listed in `failures`.
 */
export class Agent extends EventEmitter<{ event: [AgentEvent] }> {
  readonly messages: ModelMessage[] = [];
  private readonly names = new ToolNames();
  private readonly alwaysApproved = new Set<string>();
  private tools: AgentTool[] = [];
  private roots: Root[] = [];
  private notes!: ServerNotes;
  /** What search_catalog looks through: the catalog's entries and the tools. */
  private searchEntries: (SearchDoc & { line: string })[] = [];
  /** Built on the first search after a rebuild: most turns never search. */
  private index?: CatalogIndex<SearchDoc & { line: string }>;
  catalog!: Catalog;
  system = '';

  /** Set once connected; the servers' requests (sampling, elicitation, roots) reach the agent built before. */
  private servers!: AgentServers;

  private constructor(
    private readonly model: { model: LanguageModel; name: string; vision: boolean; imagesInToolResults: boolean; rawArguments: boolean },
    private readonly options: AgentSettings,
  ) {
    super();
  }

  /** Starts the agent with servers already in their connectable form (a gateway's ServerConfig fits). */
  static async start(servers: readonly NamedServer[], options: AgentSettings): Promise<Agent> {
    const agent = new Agent(modelOf(options.model), options);
    agent.roots = rootsOf(options.roots);
    agent.servers = await AgentServers.connect([...servers], {
      connectTimeoutMs: options.connectTimeoutMs,
      ...(options.approveSampling ? { sampling: (server, params) => agent.sample(server, params) } : {}),
      ...(options.elicit ? { elicitation: (server, params) => agent.elicit(server, params) } : {}),
      ...(options.roots ? { roots: () => agent.roots } : {}),
    });
    agent.rebuild();
    return agent;
  }

  get offers(): readonly ServerOffer[] {
    return this.servers.offers;
  }

  /** Servers that could not be started, each with its reason in one line. */
  get failures(): readonly ServerFailure[] {
    return this.servers.failures;
  }

  /** Tool and prompt names carry the server's name when there are several servers. */
  private qualified(server: string, name: string): string {
    return this.servers.offers.length > 1 ? `${server}__${name}` : name;
  }

  /** Rebuilds tools, catalog and system prompt from the servers' current lists. */
  private rebuild(): void {
    const offers = this.servers.offers;
    const budget = this.options.catalogBudget ?? DEFAULT_CATALOG_BUDGET;
    // Server instructions share the budget with the catalog: they are part of the same system prompt.
    this.notes = serverNotes(offers, this.options.instructionsBudget ?? DEFAULT_NOTES_BUDGET);
    const entries = catalogEntries(offers, (s, n) => this.qualified(s, n));
    this.catalog = buildCatalog(entries, offers, Math.max(0, budget - this.notes.tokens));
    const real = this.realTools();
    const toolEntries = real.map((t) => ({ kind: 'tool' as const, server: t.server ?? '', key: t.modelName, name: t.displayName, description: t.description, line: `- ${t.modelName}: ${oneLine(t.description, 90)}` }));
    this.searchEntries = [...this.catalog.entries, ...toolEntries];
    this.index = undefined;
    const compact = countTokens(JSON.stringify(real.map((t) => [t.modelName, t.description, t.inputSchema]))) > (this.options.toolBudget ?? 4000);
    const schemas = new Map(real.map((t) => [t.modelName, { name: t.modelName, description: t.description, inputSchema: t.inputSchema }]));
    if (compact) {
      // Past the budget the model sees names and one line; load_tool_schema gives the rest on demand.
      for (const t of real) {
        t.description = `${oneLine(t.description, 90)} (call load_tool_schema for its arguments)`;
        t.inputSchema = { type: 'object', additionalProperties: true };
      }
    }
    const hasResources = offers.some((o) => o.resources.length > 0 || o.templates.length > 0) || this.notes.cut.size > 0;
    const hasPrompts = offers.some((o) => o.prompts.length > 0);
    const synthetic = syntheticTools(
      {
        offers: () => this.servers.offers,
        entries: () => this.catalog.entries,
        search: (query, limit, kind) => (this.index ??= new CatalogIndex(this.searchEntries)).search(query, limit, kind),
        prompt: (name) => {
          for (const offer of this.servers.offers) {
            const prompt = offer.prompts.find((p) => this.qualified(offer.name, p.name) === name);
            if (prompt) return { offer, prompt };
          }
          return undefined;
        },
        instructions: (server) => this.notes.cut.get(server),
        vision: this.model.vision,
        imagesInToolResults: this.model.imagesInToolResults,
        maxTextBytes: this.options.maxTextBytes,
        toolSchema: (name) => schemas.get(name),
      },
      { resources: hasResources, prompts: hasPrompts, search: this.catalog.summarised, toolSchemas: compact },
    );
    this.tools = [...real, ...synthetic];
    this.system = [this.options.instructions ?? BASE_PROMPT, this.notes.text, this.catalog.text].filter(Boolean).join('\n\n');
  }

  private realTools(): AgentTool[] {
    const auto = this.options.autoApproveReadOnly ?? true;
    return this.servers.offers.flatMap((offer) =>
      offer.tools.map((t): AgentTool => {
        const display = this.qualified(offer.name, t.name);
        return {
          modelName: this.names.add(display),
          displayName: display,
          server: offer.name,
          description: t.description ?? t.title ?? t.name,
          inputSchema: t.inputSchema,
          autoApproved: auto && t.annotations?.readOnlyHint === true,
          run: async (args): Promise<ToolRun> => {
            const result = await offer.client.callTool({ name: t.name, arguments: args });
            const out = await toolResultToOutput(result, {
              vision: this.model.vision,
              maxTextBytes: this.options.maxTextBytes,
              images: this.model.imagesInToolResults ? 'inline' : 'separate',
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
    return (await this.turn(prompt, abortSignal)).text;
  }

  /** One user turn, with how it ended: the answer, or the step limit while the model was still calling tools. */
  async turn(prompt: string, abortSignal?: AbortSignal): Promise<TurnResult> {
    this.messages.push({ role: 'user', content: prompt });
    return runTurn({
      model: this.model.model,
      prepare: () => this.prepareStep(),
      messages: this.messages,
      approve: this.options.approve ?? (async () => 'no'),
      alwaysApproved: this.alwaysApproved,
      maxSteps: this.options.maxSteps ?? DEFAULT_MAX_STEPS,
      rawArguments: this.model.rawArguments,
      emit: (e) => this.emit('event', e),
      abortSignal,
    });
  }

  /** Before every model step: a server that announced a change is re-read, so the model sees it at once. */
  private async prepareStep(): Promise<StepOffer> {
    if (await this.servers.refresh()) this.rebuild();
    return { system: this.system, tools: this.tools };
  }

  /** Replaces the roots offered to servers and tells them (`notifications/roots/list_changed`). */
  async setRoots(directories: string[]): Promise<void> {
    if (!this.options.roots) throw new AgentConfigError('roots were not offered when the agent started: pass roots: [...] to offer them');
    this.roots = rootsOf(directories);
    await this.servers.rootsChanged();
  }

  /** The roots offered to servers now. */
  get currentRoots(): readonly Root[] {
    return this.roots;
  }

  private async sample(server: string, params: Parameters<typeof answerSampling>[1]) {
    const { request, result } = await answerSampling(server, params, { ...this.model, modelName: this.model.name, approve: this.options.approveSampling! });
    const last = request.messages.at(-1)?.text ?? '';
    const response = result && result.content.type === 'text' ? result.content.text : undefined;
    this.emit('event', { type: 'sampling', server, request: oneLine(last, 200), decision: result ? 'yes' : 'no', response });
    if (!result) throw samplingRefused();
    return result;
  }

  private async elicit(server: string, params: ElicitRequestParams): Promise<ElicitResult> {
    const answer = await this.options.elicit!({ server, ...params });
    // A form answer is checked against the form before it leaves: a server must never get what it did not ask.
    if (answer.action === 'accept' && 'requestedSchema' in params) {
      const problems = formProblems(formFields(params.requestedSchema), (answer.content ?? {}));
      if (problems.length > 0) throw new AgentConfigError(`the answer to ${server}'s form does not fit it: ${problems.join('; ')}`);
    }
    const mode = params.mode === 'url' ? 'url' : 'form';
    this.emit('event', { type: 'elicitation', server, mode, message: params.message, action: answer.action });
    return answer;
  }

  async close(): Promise<void> {
    await this.servers.close();
  }
}

/** The model, and what the loop must know of it. */
function modelOf(choice: ModelChoice | GivenModel) {
  if (isModelObject(choice)) {
    const m = choice.model;
    const provider = typeof m === 'string' ? '' : m.provider;
    const name = typeof m === 'string' ? m : m.modelId;
    return { model: m, name, vision: choice.vision ?? false, imagesInToolResults: choice.imagesInToolResults ?? false, rawArguments: !provider.startsWith('anthropic') };
  }
  const resolved = resolveModel(choice);
  // Anthropic takes tool input only as an object; OpenAI-style APIs carry the model's own argument text.
  return { model: resolved.model, name: resolved.name, vision: resolved.vision, imagesInToolResults: resolved.imagesInToolResults, rawArguments: resolved.provider !== 'anthropic' };
}

function isModelObject(m: ModelChoice | GivenModel): m is GivenModel {
  return typeof m.model === 'object' && m.model !== null;
}

/** Directories as MCP roots: absolute file URIs, named by their last segment; each must exist. */
function rootsOf(directories: string[] | undefined): Root[] {
  return (directories ?? []).map((dir) => {
    const absolute = path.resolve(dir);
    if (!existsSync(absolute) || !statSync(absolute).isDirectory()) throw new AgentConfigError(`root ${dir} is not a directory`);
    return { uri: pathToFileURL(absolute).href, name: path.basename(absolute) || absolute };
  });
}

/** The library entry point: `const agent = await createAgent({ servers: { files: { command, args } }, model })`. */
export async function createAgent(options: AgentOptions): Promise<Agent> {
  const { servers, ...settings } = options;
  return Agent.start(namedServers(servers), settings);
}
