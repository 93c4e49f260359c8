import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import { parseConfig } from '../../src/config/load.js';
import { blocksOf, startScriptedAnthropic, type AnthropicBlock, type ScriptedAnthropic } from '../helpers/scripted-anthropic.js';
import { FIXTURE } from '../helpers/servers.js';

/**
 * The Anthropic provider's wire format: the agent through `anthropic:NAME` with the provider's base URL on a
 * scripted Messages API server, and the fixture server's resources, tools and prompts.
 */

let anthropic: ScriptedAnthropic;
let agent: Agent;

beforeAll(async () => {
  anthropic = await startScriptedAnthropic();
  const servers = parseConfig(`mcpServers:\n  fx:\n    command: node\n    args: [--import, tsx, ${JSON.stringify(FIXTURE)}]\n`, 'agent.yaml', {}).servers;
  agent = await Agent.start(servers, { model: { model: 'anthropic:claude-sonnet-4-5', baseURL: anthropic.url, apiKey: 'sk-ant-test' }, approve: async () => 'yes' });
}, 30_000);
afterAll(async () => {
  await agent?.close();
  await anthropic?.close();
});

/** The blocks of the last user message of the latest request: where tool results and follow-up turns go. */
function lastUserBlocks(): AnthropicBlock[] {
  const messages = anthropic.requests.at(-1)!.body.messages;
  return blocksOf(messages.filter((m) => m.role === 'user').at(-1)!);
}

const textOf = (block: AnthropicBlock): string =>
  typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => b.text ?? '').join('');

describe('the agent through the Anthropic provider', () => {
  it('sends the catalog as the system prompt, tools in Anthropic\'s shape, and the key in x-api-key', async () => {
    anthropic.push({ text: 'Hello.' });
    expect(await agent.ask('hi')).toBe('Hello.');
    const { headers, body } = anthropic.requests.at(-1)!;
    expect(headers['x-api-key']).toBe('sk-ant-test');
    const system = typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('');
    expect(system).toContain('test://static-text');
    expect(body.tools!.find((t) => t.name === 'read_resource')!.input_schema).toMatchObject({ properties: { uri: { type: 'string' } } });
    expect(body.tools!.map((t) => t.name)).toContain('test_simple_text');
  });

  it('answers a tool call with a tool_result block for its tool_use id', async () => {
    anthropic.push({ toolCalls: [{ name: 'read_resource', input: { uri: 'test://static-text' } }] }, { text: 'It is static.' });
    await agent.ask('read the static text');
    const assistant = anthropic.requests.at(-1)!.body.messages.filter((m) => m.role === 'assistant').at(-1)!;
    const use = blocksOf(assistant).find((b) => b.type === 'tool_use')!;
    expect(use).toMatchObject({ name: 'read_resource', input: { uri: 'test://static-text' } });
    const result = lastUserBlocks().find((b) => b.type === 'tool_result')!;
    expect(result.tool_use_id).toBe(use.id);
    expect(textOf(result)).toContain('This is the content of the static text resource.');
  });

  it('puts an image from a resource inside the tool_result, as a base64 image block', async () => {
    anthropic.push({ toolCalls: [{ name: 'read_resource', input: { uri: 'test://static-binary' } }] }, { text: 'A pixel.' });
    await agent.ask('show the binary resource');
    const result = lastUserBlocks().find((b) => b.type === 'tool_result')!;
    const image = (result.content as AnthropicBlock[]).find((b) => b.type === 'image')!;
    expect(image.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(Buffer.from(image.source!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('puts an image from a tool result inside the tool_result too', async () => {
    anthropic.push({ toolCalls: [{ name: 'test_image_content', input: {} }] }, { text: 'An image.' });
    await agent.ask('call the image tool');
    const result = lastUserBlocks().find((b) => b.type === 'tool_result')!;
    const image = (result.content as AnthropicBlock[]).find((b) => b.type === 'image')!;
    expect(image.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
  });

  it('places a prompt\'s messages as turns after the tool_result, images included', async () => {
    anthropic.push({ toolCalls: [{ name: 'invoke_prompt', input: { name: 'test_prompt_with_image' } }] }, { text: 'Followed.' });
    await agent.ask('use the image prompt');
    const blocks = lastUserBlocks();
    // Anthropic wants the result first in the user turn that follows the call; the prompt's turn joins it.
    expect(blocks[0].type).toBe('tool_result');
    expect(textOf(blocks[0])).toMatch(/follows as \d+ conversation turns?/);
    const after = blocks.slice(1);
    expect(after.some((b) => b.type === 'image' && b.source?.media_type === 'image/png')).toBe(true);
  });

  it('answers a server\'s sampling request through the Messages API too', async () => {
    const sampler = await Agent.start(parseConfig(`mcpServers:\n  fx:\n    command: node\n    args: [--import, tsx, ${JSON.stringify(FIXTURE)}]\n`, 'agent.yaml', {}).servers, {
      model: { model: 'anthropic:claude-sonnet-4-5', baseURL: anthropic.url, apiKey: 'sk-ant-test' },
      approve: async () => 'yes',
      approveSampling: async () => true,
    });
    try {
      anthropic.push({ toolCalls: [{ name: 'test_sampling', input: { prompt: 'Count to three' } }] }, { text: 'one two three' }, { text: 'Counted.' });
      await sampler.ask('sample');
      const sampled = anthropic.requests.at(-2)!.body;
      expect(sampled.stream).toBeFalsy();
      expect(JSON.stringify(sampled.messages)).toContain('Count to three');
      expect(textOf(lastUserBlocks().find((b) => b.type === 'tool_result')!)).toContain('one two three');
    } finally {
      await sampler.close();
    }
  }, 30_000);
});
