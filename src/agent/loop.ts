import { jsonSchema, streamText, type LanguageModel, type ModelMessage, type ToolResultPart, type ToolSet } from 'ai';

export type ToolResultOutput = ToolResultPart['output'];

/** A tool as the loop offers it to the model: a real MCP tool or one of the synthetic ones. */
export interface AgentTool {
  /** The provider-safe name the model sees. */
  modelName: string;
  /** The name people see (the MCP name, or the synthetic tool's). */
  displayName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Runs without asking: synthetic tools and tools annotated read-only. */
  autoApproved: boolean;
  run(args: Record<string, unknown>): Promise<ToolRun>;
}

/** What running a tool gives the conversation. */
export interface ToolRun {
  output: ToolResultOutput;
  /** Turns that follow the tool result: a prompt's messages, images the provider cannot take in a tool result. */
  followUp?: ModelMessage[];
  isError?: boolean;
  /** A short human-readable summary for the terminal and events. */
  summary: string;
}

export type AgentEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool-call'; tool: string; arguments: Record<string, unknown> }
  | { type: 'approval'; tool: string; arguments: Record<string, unknown>; decision: 'yes' | 'no' | 'always' | 'auto' }
  | { type: 'tool-result'; tool: string; summary: string; isError: boolean }
  | { type: 'step'; step: number }
  | { type: 'done'; text: string; steps: number };

export type ApprovalAnswer = 'yes' | 'no' | 'always';
export type Approve = (request: { tool: string; arguments: Record<string, unknown>; description: string }) => Promise<ApprovalAnswer>;

export interface TurnOptions {
  model: LanguageModel;
  system: string;
  tools: AgentTool[];
  messages: ModelMessage[];
  approve: Approve;
  /** Tools approved "always" in this conversation. */
  alwaysApproved: Set<string>;
  maxSteps: number;
  emit(event: AgentEvent): void;
  abortSignal?: AbortSignal;
}

/**
 * One user turn: ask the model; run the tools it calls (asking the user first unless a tool is
 * auto-approved); give it the results; repeat until it answers without calling a tool. The loop is ours,
 * not the SDK's, because approvals and synthetic tools need a say at every step. Appends to `messages`.
 */
export async function runTurn(o: TurnOptions): Promise<string> {
  const byName = new Map(o.tools.map((t) => [t.modelName, t]));
  const toolSet: ToolSet = {};
  for (const t of o.tools) toolSet[t.modelName] = { description: t.description, inputSchema: jsonSchema(t.inputSchema as never) };
  let answer = '';
  for (let step = 1; step <= o.maxSteps; step++) {
    o.emit({ type: 'step', step });
    const result = streamText({ model: o.model, system: o.system, messages: o.messages, tools: toolSet, abortSignal: o.abortSignal, maxRetries: 1 });
    let text = '';
    const calls: { id: string; name: string; input: Record<string, unknown> }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        text += part.text;
        o.emit({ type: 'text', delta: part.text });
      } else if (part.type === 'tool-call') {
        calls.push({ id: part.toolCallId, name: part.toolName, input: (part.input ?? {}) as Record<string, unknown> });
      } else if (part.type === 'error') {
        throw part.error instanceof Error ? part.error : new Error(String(part.error));
      }
    }
    o.messages.push(...(await result.response).messages);
    answer = text;
    if (calls.length === 0) {
      o.emit({ type: 'done', text: answer, steps: step });
      return answer;
    }
    const followUps: ModelMessage[] = [];
    for (const call of calls) {
      const tool = byName.get(call.name);
      const run = tool ? await runTool(o, tool, call.input) : unknownTool(call.name, o.tools);
      o.messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: run.output }] });
      if (run.followUp) followUps.push(...run.followUp);
    }
    // Extra turns go after every tool result of the step: providers want results right after their calls.
    o.messages.push(...followUps);
  }
  o.emit({ type: 'done', text: answer, steps: o.maxSteps });
  return answer;
}

async function runTool(o: TurnOptions, tool: AgentTool, args: Record<string, unknown>): Promise<ToolRun> {
  o.emit({ type: 'tool-call', tool: tool.displayName, arguments: args });
  let decision: ApprovalAnswer | 'auto' = 'auto';
  if (!tool.autoApproved && !o.alwaysApproved.has(tool.displayName)) {
    decision = await o.approve({ tool: tool.displayName, arguments: args, description: tool.description });
    if (decision === 'always') o.alwaysApproved.add(tool.displayName);
  }
  o.emit({ type: 'approval', tool: tool.displayName, arguments: args, decision });
  if (decision === 'no') {
    const run: ToolRun = { output: { type: 'execution-denied', reason: 'The user did not approve this call.' }, isError: true, summary: 'denied by the user' };
    o.emit({ type: 'tool-result', tool: tool.displayName, summary: run.summary, isError: true });
    return run;
  }
  let run: ToolRun;
  try {
    run = await tool.run(args);
  } catch (err) {
    // A failing tool is something the model should read and work around, not the end of the turn.
    run = { output: { type: 'error-text', value: `${tool.displayName} failed: ${(err as Error).message}` }, isError: true, summary: (err as Error).message };
  }
  o.emit({ type: 'tool-result', tool: tool.displayName, summary: run.summary, isError: run.isError === true });
  return run;
}

function unknownTool(name: string, tools: AgentTool[]): ToolRun {
  const known = tools.map((t) => t.modelName).join(', ');
  return { output: { type: 'error-text', value: `There is no tool named ${name}. Available tools: ${known}` }, isError: true, summary: `unknown tool ${name}` };
}
