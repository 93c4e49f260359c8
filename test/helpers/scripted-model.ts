import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted model for agent tests: an OpenAI-compatible Chat Completions server on loopback that answers each
 * request with the next scripted reply and records every request, so a test asserts what the model was sent.
 */

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as JSON; a string is sent verbatim (script malformed arguments this way). */
  arguments: Record<string, unknown> | string;
  /** Defaults to `call_<request>_<position>`. */
  id?: string;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter';

export type ScriptedReply =
  | { text: string; finishReason?: FinishReason }
  | { toolCalls: ScriptedToolCall[]; text?: string; finishReason?: FinishReason }
  /** An HTTP error in the OpenAI error shape. Note: the AI SDK retries 408, 409, 429 and 5xx. */
  | { error: { status: number; message: string } }
  /** Decide from the request itself, e.g. to echo what the model was sent. */
  | ((request: RecordedRequest) => ScriptedReply);

/** The OpenAI wire format, as far as tests look at it. Everything else the client sends stays in the object. */
export interface WirePart { type: string; text?: string; image_url?: { url: string; detail?: string }; [key: string]: unknown }
export interface WireToolCall { id: string; type: 'function'; function: { name: string; arguments: string } }
export interface WireMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | WirePart[] | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}
export interface WireTool { type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean } }
export interface ChatRequest {
  model: string;
  messages: WireMessage[];
  tools?: WireTool[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** 1-based position among chat completion requests (GET /v1/models is not recorded). */
  number: number;
  headers: IncomingHttpHeaders;
  body: ChatRequest;
}

export interface ScriptedModel {
  /** Base URL for a provider, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Every chat completion request, in arrival order, including ones the script could not answer. */
  requests: RecordedRequest[];
  /** Replies not yet used. */
  readonly remaining: number;
  push(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

export async function startScriptedModel(replies: ScriptedReply[] = []): Promise<ScriptedModel> {
  const script = [...replies];
  const requests: RecordedRequest[] = [];
  let scripted = script.length;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, 500, `scripted model: ${String(error)}`));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'sluice-tests' }] });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendError(res, 404, `scripted model: no route for ${req.method} ${path}`);
    }
    let body: ChatRequest;
    try {
      body = JSON.parse(await readBody(req)) as ChatRequest;
    } catch (error) {
      return sendError(res, 400, `scripted model: request body is not JSON: ${String(error)}`);
    }
    const recorded: RecordedRequest = { number: requests.length + 1, headers: req.headers, body };
    requests.push(recorded);
    let reply = script.shift();
    if (reply === undefined) {
      // Loud, and immediate: retry-after-ms 0 stops the AI SDK's retries from waiting seconds on an empty script.
      res.setHeader('retry-after-ms', '0');
      return sendError(res, 500, `scripted model: request #${recorded.number} has no scripted reply (the script held ${scripted}, all used)`);
    }
    while (typeof reply === 'function') reply = reply(recorded);
    if ('error' in reply) return sendError(res, reply.error.status, reply.error.message);
    const answer = toAnswer(reply, recorded.number);
    if (body.stream === true) return sendStream(res, body, answer);
    const message = { role: 'assistant', content: answer.text ?? null, ...(answer.toolCalls.length > 0 ? { tool_calls: answer.toolCalls } : {}) };
    sendJson(res, 200, { ...envelope(body, answer, 'chat.completion'), choices: [{ index: 0, message, finish_reason: answer.finishReason }], usage: usage(body, answer) });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get remaining() {
      return script.length;
    },
    push(...more) {
      script.push(...more);
      scripted += more.length;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

interface Answer { number: number; text?: string; toolCalls: WireToolCall[]; finishReason: FinishReason }

function toAnswer(reply: Exclude<ScriptedReply, { error: unknown } | ((r: RecordedRequest) => ScriptedReply)>, number: number): Answer {
  const calls = 'toolCalls' in reply ? reply.toolCalls : [];
  const toolCalls = calls.map((call, i): WireToolCall => ({
    id: call.id ?? `call_${number}_${i + 1}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  return { number, text: reply.text, toolCalls, finishReason };
}

function envelope(body: ChatRequest, answer: Answer, object: string) {
  return { id: `chatcmpl-scripted-${answer.number}`, object, created: Math.floor(Date.now() / 1000), model: body.model };
}

/** A rough count (4 characters a token): enough for code that reads usage, not a tokenizer. */
function usage(body: ChatRequest, answer: Answer) {
  const prompt = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completion = Math.ceil(((answer.text ?? '').length + JSON.stringify(answer.toolCalls).length) / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** SSE in the order OpenAI sends it: role, text in word-sized deltas, each tool call (name, then arguments in two pieces), finish, usage. */
function sendStream(res: ServerResponse, body: ChatRequest, answer: Answer): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const head = envelope(body, answer, 'chat.completion.chunk');
  const send = (delta: Record<string, unknown>, finishReason: FinishReason | null = null) =>
    res.write(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
  send({ role: 'assistant', content: '' });
  for (const piece of answer.text?.match(/\s*\S+\s*|\s+/g) ?? []) send({ content: piece });
  answer.toolCalls.forEach((call, index) => {
    send({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    for (const piece of [args.slice(0, half), args.slice(half)]) {
      if (piece) send({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  send({}, answer.finishReason);
  if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ ...head, choices: [], usage: usage(body, answer) })}\n\n`);
  res.end('data: [DONE]\n\n');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  sendJson(res, status, { error: { message, type: 'scripted_model_error', code: status } });
}

// ---- Reading what the model was sent ----

/** The text of a message: its string content, or its text parts joined. */
export function messageText(message: WireMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('');
}

/** Every system (or developer) message's text, joined by blank lines. */
export function systemPrompt(req: RecordedRequest): string {
  return req.body.messages.filter((m) => m.role === 'system' || m.role === 'developer').map(messageText).join('\n\n');
}

export function toolNames(req: RecordedRequest): string[] {
  return (req.body.tools ?? []).map((t) => t.function.name);
}

/** The JSON schema sent for one tool's input, or undefined when the tool was not offered. */
export function toolSchema(req: RecordedRequest, name: string): Record<string, unknown> | undefined {
  return req.body.tools?.find((t) => t.function.name === name)?.function.parameters;
}

/** The tool-role messages after the last assistant message: the results the model is about to read. */
export function lastToolResults(req: RecordedRequest): WireMessage[] {
  const messages = req.body.messages;
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  return messages.slice(lastAssistant + 1).filter((m) => m.role === 'tool');
}

export interface SentImage {
  role: WireMessage['role'];
  /** Position of the message in `messages`. */
  messageIndex: number;
  url: string;
  /** For data URLs: the media type and the decoded bytes. */
  mediaType?: string;
  data?: Buffer;
}

/** Every `image_url` content part in the request, in order, with data URLs decoded. */
export function imageParts(req: RecordedRequest): SentImage[] {
  return req.body.messages.flatMap((message, messageIndex) => {
    if (!Array.isArray(message.content)) return [];
    return message.content.flatMap((part): SentImage[] => {
      if (part.type !== 'image_url' || typeof part.image_url?.url !== 'string') return [];
      const url = part.image_url.url;
      const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
      return [{ role: message.role, messageIndex, url, ...(data ? { mediaType: data[1], data: Buffer.from(data[2], 'base64') } : {}) }];
    });
  });
}
