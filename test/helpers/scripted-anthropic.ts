import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted model that speaks Anthropic's Messages API (`POST /v1/messages`, streamed as Anthropic streams it,
 * or whole), on loopback: each request gets the next scripted reply and is recorded, so a test asserts exactly
 * what the Anthropic provider put on the wire.
 */

export type AnthropicReply = { text: string } | { toolCalls: { name: string; input: Record<string, unknown> }[]; text?: string };

/** The Messages API's request, as far as tests look at it. */
export interface AnthropicBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | AnthropicBlock[];
  is_error?: boolean;
  source?: { type: string; media_type?: string; data?: string };
  [key: string]: unknown;
}
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}
export interface AnthropicRequest {
  model: string;
  system?: string | AnthropicBlock[];
  messages: AnthropicMessage[];
  tools?: { name: string; description?: string; input_schema: Record<string, unknown> }[];
  max_tokens: number;
  stream?: boolean;
  [key: string]: unknown;
}

export interface ScriptedAnthropic {
  /** Base URL for the provider: `http://127.0.0.1:PORT/v1`. */
  url: string;
  requests: { headers: IncomingMessage['headers']; body: AnthropicRequest }[];
  push(...replies: AnthropicReply[]): void;
  close(): Promise<void>;
}

export async function startScriptedAnthropic(): Promise<ScriptedAnthropic> {
  const script: AnthropicReply[] = [];
  const requests: ScriptedAnthropic['requests'] = [];
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(err) } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/messages') return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AnthropicRequest;
    requests.push({ headers: req.headers, body });
    const reply = script.shift();
    if (!reply) return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: `request #${requests.length} has no scripted reply` } });
    const n = requests.length;
    const content: AnthropicBlock[] = [
      ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
      ...('toolCalls' in reply ? reply.toolCalls.map((c, i) => ({ type: 'tool_use', id: `toolu_${n}_${i + 1}`, name: c.name, input: c.input })) : []),
    ];
    const stopReason = 'toolCalls' in reply ? 'tool_use' : 'end_turn';
    const message = { id: `msg_${n}`, type: 'message', role: 'assistant', model: body.model, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } };
    if (!body.stream) return sendJson(res, 200, { ...message, content, stop_reason: stopReason });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('message_start', { message: { ...message, content: [], stop_reason: null } });
    content.forEach((block, index) => {
      if (block.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
      } else {
        send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        const json = JSON.stringify(block.input);
        const half = Math.ceil(json.length / 2);
        for (const piece of [json.slice(0, half), json.slice(half)]) send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
    send('message_stop', {});
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    push: (...replies) => void script.push(...replies),
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** The blocks of a message, whether its content was sent as a string or as blocks. */
export function blocksOf(message: AnthropicMessage): AnthropicBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}
