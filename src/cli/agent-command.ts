import { createInterface, type Interface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent, ApprovalAnswer } from '../agent/loop.js';
import type { ServerConfig } from '../config/schema.js';
import { loadOrExit } from './load-config.js';

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
}

const dim = (s: string) => (process.stderr.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const short = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** The servers to use: a running gateway, or the `mcpServers` of a config file (./sluice.yaml by default). */
function serversFrom(flags: AgentFlags): ServerConfig[] {
  if (flags.gateway) {
    const token = flags.token ?? process.env.SLUICE_TOKEN;
    const common = { prefix: '', mode: 'shared' as const, maxSessions: 1, idleTimeoutMs: 0, requestTimeoutMs: 300_000, label: { integrity: 'untrusted' as const, confidentiality: 'public' as const }, trustedPaths: [], tools: {}, resources: [] };
    const transport = /^wss?:/.test(flags.gateway) ? ('ws' as const) : ('http' as const);
    return [{ ...common, name: 'sluice', transport, url: flags.gateway, headers: token ? { authorization: `Bearer ${token}` } : {} }];
  }
  return loadOrExit(flags.config).servers;
}

/** Asks at the terminal: yes, no, or always for this tool. */
async function askAtTerminal(rl: Interface, tool: string, args: Record<string, unknown>): Promise<ApprovalAnswer> {
  for (;;) {
    const answer = (await rl.question(`Allow ${tool} ${short(args)}? [y]es / [n]o / [a]lways: `)).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return 'yes';
    if (answer === 'n' || answer === 'no' || answer === '') return 'no';
    if (answer === 'a' || answer === 'always') return 'always';
  }
}

function showEvent(e: AgentEvent, out: NodeJS.WriteStream): void {
  if (e.type === 'text') out.write(e.delta);
  else if (e.type === 'tool-call') process.stderr.write(`\n${dim(`→ ${e.tool} ${short(e.arguments)}`)}\n`);
  else if (e.type === 'tool-result') process.stderr.write(`${dim(`${e.isError ? '✗' : '←'} ${e.tool}: ${e.summary}`)}\n`);
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
    .option('--yes', 'approve every tool call without asking')
    .option('--budget <tokens>', 'token budget of the resource/prompt catalog', '1500')
    .option('--max-text-bytes <n>', 'cap on one resource\'s text (the rest can be read on request)')
    .action(async (flags: AgentFlags) => {
      const interactive = flags.prompt === undefined;
      const rl = process.stdin.isTTY || interactive ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
      const steps: AgentEvent[] = [];
      let agent: Agent;
      try {
        // Loaded when an agent runs, not for every sluice command: the AI SDK and the tokenizer take a while.
        const { createAgent } = await import('../agent/agent.js');
        agent = await createAgent({
          servers: serversFrom(flags),
          model: { model: flags.model, baseURL: flags.baseUrl, apiKey: flags.apiKey, vision: flags.vision },
          catalogBudget: Number(flags.budget),
          maxTextBytes: flags.maxTextBytes ? Number(flags.maxTextBytes) : undefined,
          approve: async ({ tool, arguments: args }) => {
            if (flags.yes) return 'yes';
            if (!rl) return 'no'; // nobody to ask: refuse rather than guess
            return askAtTerminal(rl, tool, args);
          },
        });
      } catch (err) {
        rl?.close();
        const { ModelConfigError } = await import('../agent/model.js');
        process.stderr.write(`sluice agent: ${err instanceof ModelConfigError ? err.message : `cannot start: ${(err as Error).message}`}\n`);
        process.exitCode = 2;
        return;
      }
      agent.on('event', (e) => {
        if (flags.json) steps.push(e);
        else showEvent(e, process.stdout);
      });
      try {
        if (!interactive) {
          const answer = await agent.ask(flags.prompt!);
          if (flags.json) process.stdout.write(`${JSON.stringify({ answer, steps: steps.filter((s) => s.type !== 'text') })}\n`);
          else process.stdout.write(answer.endsWith('\n') ? '' : '\n');
          return;
        }
        process.stderr.write(dim(`sluice agent: ${agent.toolNames.length} tools; catalog ${agent.catalog.entries.length} entries (${agent.catalog.tokens} tokens). Empty line or Ctrl-D to quit.\n`));
        for (;;) {
          const line = await rl!.question('> ').catch(() => '');
          if (!line.trim()) break;
          await agent.ask(line);
          process.stdout.write('\n');
        }
      } catch (err) {
        process.stderr.write(`sluice agent: ${(err as Error).message}\n`);
        process.exitCode = 1;
      } finally {
        rl?.close();
        await agent.close();
      }
    });
}
