import { InvalidToolInputError, jsonSchema, streamText, type LanguageModel, type ModelMessage, type ToolResultPart, type ToolSet } from 'ai';

import { modelError } from './errors.js';

export type ToolResultOutput = ToolResultPart['output'];

/** A tool as the loop offers it to the model: a real MCP tool or one of the synthetic ones. */
export interface AgentTool {
  /** The provider-safe name the model sees. */
  modelName: string;
  /** The name people see (the MCP name, or the synthetic tool's). */
  displayName: string;
  /** The server a real tool comes from; synthetic tools have none. */
  server?: string;
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
  | { type: 'done'; text: string; steps: number; stoppedBy: StopReason }
  | SamplingEvent
  | ElicitationEvent
  | { type: 'notice'; message: string };

/** Why a turn ended: the model answered, or it was still calling tools when the step limit came. */
export type StopReason = 'answer' | 'step-limit';

/** A server asked the agent's model for a completion (MCP sampling), and what came of it. */
export interface SamplingEvent {
  type: 'sampling';
  server: string;
  /** The request's last user text, shortened. */
  request: string;
  decision: 'yes' | 'no';
  /** The model's answer, when there was one. */
  response?: string;
}

/** A server asked the user something (MCP elicitation), and the answer's action. */
export interface ElicitationEvent {
  type: 'elicitation';
  server: string;
  mode: 'form' | 'url';
  message: string;
  action: 'accept' | 'decline' | 'cancel';
}

export type ApprovalAnswer = 'yes' | 'no' | 'always';
export type Approve = (request: { tool: string; arguments: Record<string, unknown>; description: string }) => Promise<ApprovalAnswer>;

/** What the model is offered at one step: a server may change its lists while a turn runs. */
export interface StepOffer {
  system: string;
  tools: AgentTool[];
}

export interface TurnOptions {
  model: LanguageModel;
  /** Called before every model step: the system prompt and tools as they stand now. */
  prepare(): Promise<StepOffer>;
  messages: ModelMessage[];
  approve: Approve;
  /** Tools approved "always" in this conversation. */
  alwaysApproved: Set<string>;
  maxSteps: number;
  /** Whether the provider can carry a tool call's arguments back as the text the model wrote (OpenAI-style). */
  rawArguments: boolean;
  emit(event: AgentEvent): void;
  abortSignal?: AbortSignal;
}

export interface TurnResult {
  text: string;
  steps: number;
  stoppedBy: StopReason;
}

interface Call {
  id: string;
  name: string;
  input: unknown;
  /** Arguments that are not a JSON object: the model's own text and what is wrong with it. */
  malformed?: { text: string; reason: string };
}

/**
 * One user turn: ask the model; run the tools it calls (asking the user first unless a tool is
 * auto-approved); give it the results; repeat until it answers without calling a tool, or the step limit.
 * The loop is ours, not the SDK's, because approvals and synthetic tools need a say at every step.
 * Appends to `messages`. A model that cannot be reached or keeps failing ends the turn with a ModelError.
 */
export async function runTurn(o: TurnOptions): Promise<TurnResult> {
  let answer = '';
  for (let step = 1; step <= o.maxSteps; step++) {
    o.emit({ type: 'step', step });
    const offer = await o.prepare();
    const byName = new Map(offer.tools.map((t) => [t.modelName, t]));
    const { text, calls, messages } = await modelStep(o, offer);
    o.messages.push(...keepModelArguments(messages, calls, o.rawArguments));
    answer = text;
    if (calls.length === 0) {
      o.emit({ type: 'done', text: answer, steps: step, stoppedBy: 'answer' });
      return { text: answer, steps: step, stoppedBy: 'answer' };
    }
    const followUps: ModelMessage[] = [];
    for (const call of calls) {
      const tool = byName.get(call.name);
      const run = !tool ? unknownTool(call.name, offer.tools) : call.malformed ? malformed(o, tool, call.malformed) : await runTool(o, tool, call.input as Record<string, unknown>);
      o.messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: run.output }] });
      if (run.followUp) followUps.push(...run.followUp);
    }
    // Extra turns go after every tool result of the step: providers want results right after their calls.
    o.messages.push(...followUps);
  }
  o.emit({ type: 'notice', message: `stopped after ${o.maxSteps} steps: the model was still calling tools (raise the limit with maxSteps / --max-steps)` });
  o.emit({ type: 'done', text: answer, steps: o.maxSteps, stoppedBy: 'step-limit' });
  return { text: answer, steps: o.maxSteps, stoppedBy: 'step-limit' };
}

/** One request to the model, streamed: its text, the tools it calls, and the messages for the history. */
async function modelStep(o: TurnOptions, offer: StepOffer): Promise<{ text: string; calls: Call[]; messages: ModelMessage[] }> {
  const toolSet: ToolSet = {};
  for (const t of offer.tools) toolSet[t.modelName] = { description: t.description, inputSchema: jsonSchema(t.inputSchema as never) };
  // onError: the SDK's default prints the whole error, request body included, to the terminal; the error part
  // below ends the turn with one line instead.
  const result = streamText({ model: o.model, system: offer.system, messages: o.messages, tools: toolSet, abortSignal: o.abortSignal, maxRetries: 1, onError: () => undefined });
  let text = '';
  const calls: Call[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      text += part.text;
      o.emit({ type: 'text', delta: part.text });
    } else if (part.type === 'tool-call') {
      calls.push(callOf(part));
    } else if (part.type === 'error') {
      throw modelError(part.error);
    }
  }
  // The SDK answers a call whose arguments did not parse with a tool message of its own; the loop gives every
  // result itself, so only the assistant's messages are kept.
  return { text, calls, messages: (await result.response).messages.filter((m) => m.role !== 'tool') };
}

/** A tool call as the SDK parsed it; arguments that are not a JSON object are kept as the model wrote them. */
function callOf(part: { toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown }): Call {
  const call: Call = { id: part.toolCallId, name: part.toolName, input: part.input };
  if (part.invalid && InvalidToolInputError.isInstance(part.error)) {
    const cause = part.error.cause instanceof Error ? part.error.cause.message : typeof part.error.cause === 'string' ? part.error.cause : part.error.message;
    call.malformed = { text: part.error.toolInput, reason: `not valid JSON (${cause.replace(/^JSON parsing failed: Text: [\s\S]*?Error message: /, '')})` };
  } else if (part.input === null || typeof part.input !== 'object' || Array.isArray(part.input)) {
    call.malformed = { text: JSON.stringify(part.input) ?? '', reason: 'not a JSON object' };
  }
  return call;
}

/**
 * The SDK writes a call whose arguments did not parse into the history as `{}`, so the model would later read
 * that it sent nothing. Where the provider allows it, the history keeps the model's own text instead.
 */
function keepModelArguments(messages: ModelMessage[], calls: Call[], raw: boolean): ModelMessage[] {
  const malformed = new Map(calls.filter((c) => c.malformed).map((c) => [c.id, c.malformed!.text]));
  if (!raw || malformed.size === 0) return messages;
  return messages.map((m) =>
    m.role !== 'assistant' || typeof m.content === 'string'
      ? m
      : { ...m, content: m.content.map((p) => (p.type === 'tool-call' && malformed.has(p.toolCallId) ? { ...p, input: malformed.get(p.toolCallId) } : p)) },
  );
}

/** Arguments the model wrote badly: it reads what was wrong and its own text, and may call again. */
function malformed(o: TurnOptions, tool: AgentTool, bad: { text: string; reason: string }): ToolRun {
  const value = `The arguments for ${tool.modelName} were ${bad.reason}, so the tool did not run. You sent: ${bad.text}\nCall ${tool.modelName} again with its arguments as one JSON object.`;
  const run: ToolRun = { output: { type: 'error-text', value }, isError: true, summary: `arguments ${bad.reason}` };
  o.emit({ type: 'tool-result', tool: tool.displayName, summary: run.summary, isError: true });
  return run;
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
