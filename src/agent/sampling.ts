import { ProtocolError, type CreateMessageRequestParams, type CreateMessageResult } from '@modelcontextprotocol/client';
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { contentBlockToParts } from './content/convert.js';
import { modelError } from './errors.js';

/** A server's request for a completion, as the person approving it sees it. */
export interface SamplingRequest {
  server: string;
  /** The messages the server wants answered, as text (images and audio named). */
  messages: { role: 'user' | 'assistant'; text: string }[];
  systemPrompt?: string;
  maxTokens: number;
  /** Model names the server would prefer; the agent answers with its own model and says which. */
  modelHints: string[];
}

export type ApproveSampling = (request: SamplingRequest) => Promise<boolean>;

/** MCP's code for "the user rejected the request" (the spec's sampling example). */
const USER_REJECTED = -1;

/**
 * Answers a server's `sampling/createMessage` with the agent's own model once the user agreed: the request's
 * system prompt, token limit, temperature and stop sequences go to the provider as they are; model preferences
 * are shown, not followed (there is one model). A refusal reaches the server as the spec's error -1.
 */
export async function answerSampling(
  server: string,
  params: CreateMessageRequestParams,
  o: { model: LanguageModel; modelName: string; vision: boolean; approve: ApproveSampling },
): Promise<{ request: SamplingRequest; result?: CreateMessageResult }> {
  const request = describeSampling(server, params);
  if (!(await o.approve(request))) return { request };
  const messages = await Promise.all(params.messages.map((m) => samplingTurn(m, o.vision)));
  try {
    const out = await generateText({
      model: o.model,
      system: params.systemPrompt,
      messages,
      maxOutputTokens: params.maxTokens,
      temperature: params.temperature,
      stopSequences: params.stopSequences,
      maxRetries: 1,
    });
    const stopReason = out.finishReason === 'length' ? 'maxTokens' : out.finishReason === 'stop' ? 'endTurn' : out.finishReason;
    return { request, result: { model: o.modelName, role: 'assistant', content: { type: 'text', text: out.text }, stopReason } };
  } catch (err) {
    throw modelError(err);
  }
}

export function samplingRefused(): ProtocolError {
  return new ProtocolError(USER_REJECTED, 'The user declined the sampling request');
}

type SamplingMessage = CreateMessageRequestParams['messages'][number];

/** One sampling message as a conversation turn; the content may be one block or several. */
async function samplingTurn(m: SamplingMessage, vision: boolean): Promise<ModelMessage> {
  const blocks = Array.isArray(m.content) ? m.content : [m.content];
  const parts = (await Promise.all(blocks.map((b) => contentBlockToParts(blockOf(b), { vision })))).flat();
  if (m.role === 'assistant') return { role: 'assistant', content: parts.map((p) => (p.type === 'text' ? p : { type: 'text' as const, text: '[image]' })) };
  return { role: 'user', content: parts };
}

/** Sampling content other than text, image and audio (tool use and results) is shown as its JSON. */
function blockOf(b: unknown): Parameters<typeof contentBlockToParts>[0] {
  const type = (b as { type?: unknown }).type;
  if (type === 'text' || type === 'image' || type === 'audio') return b as Parameters<typeof contentBlockToParts>[0];
  return { type: 'text', text: JSON.stringify(b) };
}

function describeSampling(server: string, params: CreateMessageRequestParams): SamplingRequest {
  const text = (b: unknown): string => {
    const block = b as { type?: string; text?: string; mimeType?: string };
    return block.type === 'text' ? (block.text ?? '') : `[${block.type ?? 'content'}${block.mimeType ? ` ${block.mimeType}` : ''}]`;
  };
  return {
    server,
    messages: params.messages.map((m) => ({ role: m.role, text: (Array.isArray(m.content) ? m.content : [m.content]).map(text).join(' ') })),
    systemPrompt: params.systemPrompt,
    maxTokens: params.maxTokens,
    modelHints: (params.modelPreferences?.hints ?? []).map((h) => h.name).filter((n): n is string => typeof n === 'string'),
  };
}
