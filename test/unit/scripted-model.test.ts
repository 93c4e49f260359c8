import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool, type ModelMessage, type ToolResultPart } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  imageParts,
  lastToolResults,
  startScriptedModel,
  systemPrompt,
  toolNames,
  toolSchema,
  type ScriptedModel,
  type ScriptedReply,
} from '../helpers/scripted-model.js';

// A real 1×1 PNG: the AI SDK sniffs image bytes, so a made-up payload would not stay image/png.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const readFileSchema = {
  type: 'object' as const,
  properties: { path: { type: 'string' as const, description: 'File to read' } },
  required: ['path'],
  additionalProperties: false,
};
const tools = { read_file: tool({ description: 'Read a file', inputSchema: jsonSchema<{ path: string }>(readFileSchema) }) };

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function start(replies: ScriptedReply[], includeUsage = false) {
  model = await startScriptedModel(replies);
  const provider = createOpenAICompatible({ name: 'scripted', baseURL: model.url, apiKey: 'x', includeUsage });
  return { model, llm: provider.chatModel('scripted-1') };
}

describe('the scripted model, through the AI SDK openai-compatible provider', () => {
  it('returns a scripted tool call with parsed arguments and records the tools, schema and system prompt sent', async () => {
    const { model, llm } = await start([{ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' }, id: 'call_a' }] }]);
    const result = await generateText({ model: llm, system: 'You are terse.', prompt: 'Read notes.txt', tools });

    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ toolCallId: 'call_a', toolName: 'read_file', input: { path: 'notes.txt' } });

    const [req] = model.requests;
    expect(req.number).toBe(1);
    expect(req.body.model).toBe('scripted-1');
    expect(req.headers.authorization).toBe('Bearer x');
    expect(systemPrompt(req)).toBe('You are terse.');
    expect(req.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(toolNames(req)).toEqual(['read_file']);
    expect(toolSchema(req, 'read_file')).toEqual(readFileSchema);
    expect(req.body.tools?.[0].function.description).toBe('Read a file');
    expect(req.body.tool_choice).toBe('auto');
    expect(model.remaining).toBe(0);
  });

  it('records the follow-up request: the assistant tool call, then a tool message with the result', async () => {
    const { model, llm } = await start([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { text: 'The notes say hello.' },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Read notes.txt' }];
    const first = await generateText({ model: llm, messages, tools });
    const call = first.toolCalls[0];
    expect(call.toolCallId).toBe('call_1_1');
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'text', value: 'hello' } }],
    });
    const second = await generateText({ model: llm, messages, tools });
    expect(second.text).toBe('The notes say hello.');

    const req = model.requests[1];
    expect(req.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(req.body.messages[1]).toMatchObject({
      content: null,
      tool_calls: [{ id: 'call_1_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }],
    });
    expect(lastToolResults(req)).toEqual([{ role: 'tool', tool_call_id: 'call_1_1', content: 'hello' }]);
  });

  it('streams text in order, and streams tool calls whose arguments arrive in pieces', async () => {
    const { model, llm } = await start([
      { text: 'one two three four' },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }, { name: 'read_file', arguments: { path: 'b.txt' } }] },
    ], true);

    const text = streamText({ model: llm, prompt: 'count' });
    const deltas: string[] = [];
    for await (const delta of text.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('one two three four');
    expect(await text.finishReason).toBe('stop');
    expect((await text.usage).inputTokens).toBeGreaterThan(0);
    expect(model.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const calls = streamText({ model: llm, prompt: 'read both', tools });
    expect(await calls.finishReason).toBe('tool-calls');
    expect((await calls.toolCalls).map((c) => [c.toolCallId, c.input])).toEqual([
      ['call_2_1', { path: 'a.txt' }],
      ['call_2_2', { path: 'b.txt' }],
    ]);
  });

  it('sends an image in a user message as an image_url data URL', async () => {
    const { model, llm } = await start([{ text: 'A single pixel.' }]);
    await generateText({
      model: llm,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', image: PNG_BASE64, mediaType: 'image/png' }] }],
    });
    const req = model.requests[0];
    expect(req.body.messages[0].content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
    ]);
    const [image] = imageParts(req);
    expect(image).toMatchObject({ role: 'user', messageIndex: 0, mediaType: 'image/png' });
    expect(image.data?.equals(Buffer.from(PNG_BASE64, 'base64'))).toBe(true);
  });

  it('cannot put an image into a tool message: the provider sends the tool output as JSON text', async () => {
    // This pins the provider's behaviour so the agent's strategy (images in a user message after the tool
    // results) is revisited if a provider upgrade starts sending image parts in tool messages.
    const { model, llm } = await start([{ toolCalls: [{ name: 'read_file', arguments: { path: 'pixel.png' } }] }, { text: 'ok' }, { text: 'ok' }]);
    const first = await generateText({ model: llm, prompt: 'Read pixel.png', tools });
    const call = first.toolCalls[0];
    const history: ModelMessage[] = [{ role: 'user', content: 'Read pixel.png' }, ...first.response.messages];
    const toolMessage = (result: ToolResultPart): ModelMessage => ({ role: 'tool', content: [result] });

    await generateText({
      model: llm,
      tools,
      messages: [...history, toolMessage({
        type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName,
        output: { type: 'content', value: [{ type: 'text', text: 'pixel.png:' }, { type: 'image-data', data: PNG_BASE64, mediaType: 'image/png' }] },
      })],
    });
    const inTool = model.requests[1];
    const [result] = lastToolResults(inTool);
    expect(typeof result.content).toBe('string');
    expect(JSON.parse(result.content as string)).toEqual([
      { type: 'text', text: 'pixel.png:' },
      { type: 'image-data', data: PNG_BASE64, mediaType: 'image/png' },
    ]);
    expect(imageParts(inTool)).toEqual([]);

    // What works: the tool result says where the image is, and a user message after the results carries it.
    await generateText({
      model: llm,
      tools,
      messages: [
        ...history,
        toolMessage({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'text', value: 'pixel.png: image/png, attached below' } }),
        { role: 'user', content: [{ type: 'text', text: `Image from ${call.toolCallId}:` }, { type: 'image', image: PNG_BASE64, mediaType: 'image/png' }] },
      ],
    });
    const after = model.requests[2];
    expect(after.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(imageParts(after)).toMatchObject([{ role: 'user', messageIndex: 3, mediaType: 'image/png' }]);
  });

  it('passes malformed scripted arguments through, so the SDK reports an invalid tool call', async () => {
    const { llm } = await start([{ toolCalls: [{ name: 'read_file', arguments: '{"path": ' }] }]);
    const result = await generateText({ model: llm, prompt: 'go', tools });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'read_file', invalid: true });
  });

  it('answers from a function of the request, and with scripted HTTP errors', async () => {
    const { model, llm } = await start([
      (req) => ({ text: `you sent ${req.body.messages.length} message(s)` }),
      { error: { status: 400, message: 'context length exceeded' } },
    ]);
    expect((await generateText({ model: llm, prompt: 'hi' })).text).toBe('you sent 1 message(s)');
    await expect(generateText({ model: llm, prompt: 'hi', maxRetries: 0 })).rejects.toThrow('context length exceeded');
    expect(model.requests).toHaveLength(2);
  });

  it('fails loudly, naming the request, when the script runs out', async () => {
    const { model, llm } = await start([{ text: 'only reply' }]);
    await generateText({ model: llm, prompt: 'one' });
    await expect(generateText({ model: llm, prompt: 'two', maxRetries: 0 })).rejects.toThrow(
      'request #2 has no scripted reply (the script held 1, all used)',
    );

    // With the SDK's default retries the failure is still quick (retry-after-ms: 0) and still names the request.
    const started = Date.now();
    await expect(generateText({ model: llm, prompt: 'three' })).rejects.toThrow(/request #5 has no scripted reply/);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(model.requests.map((r) => r.number)).toEqual([1, 2, 3, 4, 5]);

    // streamText does not reject with the cause: it arrives as an error part (and onError); `text` only says
    // "No output generated".
    const streamed = streamText({ model: llm, prompt: 'streamed', maxRetries: 0, onError: () => {} });
    const errors: string[] = [];
    for await (const part of streamed.fullStream) if (part.type === 'error') errors.push(String(part.error));
    expect(errors).toEqual([expect.stringContaining('request #6 has no scripted reply')]);

    model.push({ text: 'more' });
    expect((await generateText({ model: llm, prompt: 'four' })).text).toBe('more');
  });

  it('lists a model at GET /v1/models', async () => {
    const { model } = await start([]);
    const res = await fetch(`${model.url}/models`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'list', data: [{ id: 'scripted' }] });
    expect(model.requests).toEqual([]);
  });
});
