import path from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { Agent, AgentEvent, AgentSettings } from '../agent/agent.js';
import type { NamedServer } from '../agent/server-spec.js';
import { askElicitation, askSamplingApproval, askToolApproval, dim, elicitationWithoutTerminal, short } from './agent-terminal.js';
import { transportForUrl } from '../protocol/transport-for-url.js';
import { loadOrExit } from './load-config.js';
import { forTerminal as t, printableJson } from '../policy/printable.js';

interface AgentFlags {
  config?: string;
  gateway?: string;
  token?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  vision?: boolean;
  prompt?: string;
  json?: boolean;
  yes?: boolean;
  budget?: string;
  maxTextBytes?: string;
  maxSteps: string;
  strict?: boolean;
  root: string[];
}

/** Exit codes, documented in docs/agent.md: each way of ending a person or a script may want to tell apart. */
const EXIT = { failed: 1, cannotStart: 2, stepLimit: 3 } as const;

/** The servers to use: a running gateway, or the `mcpServers` of a config file (./sluice.yaml by default). */
function serversFrom(flags: AgentFlags): NamedServer[] {
  if (flags.gateway) {
    const token = flags.token ?? process.env.SLUICE_TOKEN;
    return [{ name: 'sluice', displayName: 'the gateway', transport: transportForUrl(flags.gateway), url: flags.gateway, headers: token ? { authorization: `Bearer ${token}` } : {} }];
  }
  return loadOrExit(flags.config).servers;
}

function showEvent(e: AgentEvent, out: NodeJS.WriteStream): void {
  // The model's answer keeps its lines; everything else shown is one line. All of it came from outside.
  if (e.type === 'text') out.write(t(e.delta, true));
  else if (e.type === 'tool-call') process.stderr.write(`\n${dim(`→ ${t(e.tool)} ${t(short(e.arguments))}`)}\n`);
  else if (e.type === 'tool-result') process.stderr.write(`${dim(`${e.isError ? '✗' : '←'} ${t(e.tool)}: ${t(e.summary)}`)}\n`);
  else if (e.type === 'sampling') process.stderr.write(`${dim(e.decision === 'yes' ? `← the model answered ${t(e.server)}: ${t(short(e.response ?? '', 300))}` : `✗ sampling for ${t(e.server)} declined`)}\n`);
  else if (e.type === 'elicitation') process.stderr.write(`${dim(`${e.action === 'accept' ? '←' : '✗'} ${t(e.server)}'s ${e.mode === 'url' ? 'link' : 'form'}: ${e.action}`)}\n`);
}

/** The terminal's part of an agent: asking for approvals, answering servers' questions, or refusing when nobody can. */
function terminalSettings(flags: AgentFlags, rl: Interface | undefined, interactive: boolean): Omit<AgentSettings, 'model'> {
  return {
    catalogBudget: Number(flags.budget),
    maxTextBytes: flags.maxTextBytes ? Number(flags.maxTextBytes) : undefined,
    maxSteps: positiveInteger('--max-steps', flags.maxSteps),
    roots: [process.cwd(), ...flags.root],
    approve: async ({ tool, arguments: args }) => {
      if (flags.yes) return 'yes';
      if (!rl) return 'no'; // nobody to ask: refuse rather than guess
      return askToolApproval(rl, tool, args);
    },
    approveSampling: async (request) => {
      if (flags.yes) return true;
      if (!rl) return false;
      return askSamplingApproval(rl, request, flags.model ?? process.env.SLUICE_MODEL ?? 'the model');
    },
    elicit: async (request) => (interactive && rl ? askElicitation(rl, request) : elicitationWithoutTerminal(request, flags.yes === true)),
  };
}

function positiveInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, not "${value}"`);
  return n;
}

/** `sluice agent`: a chat in the terminal, or with -p one answer on stdout. */
export function registerAgentCommand(program: Command): void {
  program
    .command('agent')
    .description('chat with a model that uses the tools, resources and prompts of MCP servers (or a sluice gateway)')
    .option('-c, --config <file>', 'config whose mcpServers to use (default: ./sluice.yaml or the embedded default)')
    .option('--gateway <url>', 'use a running sluice gateway instead, e.g. http://127.0.0.1:8808/mcp')
    .option('--token <token>', 'bearer token for the gateway (default: $SLUICE_TOKEN)')
    .option('-m, --model <provider:name>', 'the model, e.g. ollama:llama3.2, openai:gpt-4o-mini, anthropic:claude-sonnet-4-5 (default: $SLUICE_MODEL)')
    .option('--base-url <url>', 'the provider\'s base URL (OpenAI-compatible servers)')
    .option('--api-key <key>', 'the provider\'s API key')
    .option('--vision', 'the model can see images')
    .option('--no-vision', 'the model cannot see images')
    .option('-p, --prompt <text>', 'ask one question, print the answer, exit')
    .option('--json', 'with -p: print the answer and the steps as JSON')
    .option('--yes', 'approve every tool call and sampling request without asking; with -p, fill servers\' forms with their defaults')
    .option('--budget <tokens>', 'token budget of the server notes and resource/prompt catalog', '1500')
    .option('--max-text-bytes <n>', 'cap on one resource\'s text (the rest can be read on request)')
    .option('--max-steps <n>', 'model requests per turn, at most (exit code 3 when reached)', '20')
    .option('--strict', 'exit (code 2) when any server cannot be started, instead of going on without it')
    .option('--root <dir>', 'a directory offered to servers as a root, besides the working directory (repeatable)', (v: string, all: string[]) => [...all, v], [])
    .action(async (flags: AgentFlags) => {
      const interactive = flags.prompt === undefined;
      const rl = process.stdin.isTTY || interactive ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
      const fail = (message: string, code: number) => {
        process.stderr.write(`sluice agent: ${t(message, true)}\n`);
        process.exitCode = code;
      };
      let agent: Agent;
      try {
        // Loaded when an agent runs, not for every sluice command: the AI SDK and the tokenizer take a while.
        const { Agent } = await import('../agent/agent.js');
        agent = await Agent.start(serversFrom(flags), {
          model: { model: flags.model, baseURL: flags.baseUrl, apiKey: flags.apiKey, vision: flags.vision },
          ...terminalSettings(flags, rl, interactive),
        });
      } catch (err) {
        rl?.close();
        // Our own configuration errors are already sentences; anything else is said to have stopped the start.
        const ours = ['ModelConfigError', 'AgentConfigError'].includes((err as Error).name);
        return fail(ours ? (err as Error).message : `cannot start: ${(err as Error).message}`, EXIT.cannotStart);
      }
      try {
        if (!(await serversUsable(agent, flags))) return;
        await converse(agent, flags, rl, interactive);
      } catch (err) {
        fail((err as Error).message, EXIT.failed);
      } finally {
        rl?.close();
        await agent.close();
      }
    });

  /** Says which servers could not be started; whether to go on (not under --strict, and not with none at all). */
  async function serversUsable(agent: Agent, flags: AgentFlags): Promise<boolean> {
    for (const f of agent.failures) process.stderr.write(`sluice agent: server ${t(f.name)}: ${t(f.reason)}${flags.strict ? '' : ' (going on without it)'}\n`);
    if (agent.failures.length > 0 && (flags.strict || agent.offers.length === 0)) {
      process.stderr.write(`sluice agent: ${flags.strict ? 'stopping (--strict)' : 'no server could be started'}\n`);
      process.exitCode = EXIT.cannotStart;
      return false;
    }
    return true;
  }

  async function converse(agent: Agent, flags: AgentFlags, rl: Interface | undefined, interactive: boolean): Promise<void> {
    const steps: AgentEvent[] = [];
    agent.on('event', (e) => {
      if (flags.json) steps.push(e);
      else showEvent(e, process.stdout);
    });
    const stepLimit = () => process.stderr.write(`\nsluice agent: stopped after ${flags.maxSteps} model steps; the model was still calling tools (raise --max-steps)\n`);
    if (!interactive) {
      const turn = await agent.turn(flags.prompt!);
      if (flags.json) process.stdout.write(`${printableJson({ answer: turn.text, stoppedBy: turn.stoppedBy, steps: steps.filter((s) => s.type !== 'text') })}\n`);
      else process.stdout.write(turn.text.endsWith('\n') ? '' : '\n');
      if (turn.stoppedBy === 'step-limit') {
        stepLimit();
        process.exitCode = EXIT.stepLimit;
      }
      return;
    }
    process.stderr.write(dim(`sluice agent: ${agent.toolNames.length} tools; catalog ${agent.catalog.entries.length} entries (${agent.catalog.tokens} tokens). /roots, /root add DIR, /root remove DIR. Empty line or Ctrl-D to quit.\n`));
    for (;;) {
      const line = await rl!.question('> ').catch(() => '');
      if (!line.trim()) break;
      if (line.startsWith('/root')) {
        await rootCommand(agent, line.trim());
        continue;
      }
      try {
        const turn = await agent.turn(line);
        process.stdout.write('\n');
        if (turn.stoppedBy === 'step-limit') stepLimit();
      } catch (err) {
        // In a chat, a model that failed once may answer the next time: say so and keep the conversation.
        if ((err as Error).name !== 'ModelError') throw err;
        process.stderr.write(`\nsluice agent: ${t((err as Error).message, true)}\n`);
      }
    }
  }
}

/** `/roots`, `/root add DIR`, `/root remove DIR`: the roots servers see, changed while the chat runs. */
async function rootCommand(agent: Agent, line: string): Promise<void> {
  const [, verb, ...rest] = line.split(/\s+/);
  const dir = rest.join(' ');
  const now = agent.currentRoots.map((r) => fileURLToPath(r.uri));
  try {
    if (verb === 'add' && dir) await agent.setRoots([...now, dir]);
    else if (verb === 'remove' && dir) await agent.setRoots(now.filter((p) => p !== path.resolve(dir)));
    else if (verb !== undefined && line !== '/roots') throw new Error('use /roots, /root add DIR or /root remove DIR');
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
  }
  process.stderr.write(dim(`roots: ${agent.currentRoots.map((r) => r.uri).join(', ') || 'none'}\n`));
}
