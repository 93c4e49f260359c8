import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, type AgentSettings, type ElicitationRequest, type SamplingRequest } from '../../src/agent/agent.js';
import { parseConfig } from '../../src/config/load.js';
import { lastToolResults, messageText, startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { EVERYTHING, makeSandbox } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

/** The agent as an MCP client for server-everything's sampling, elicitation and roots tools. */

let model: ScriptedModel;
let sandbox: string;

beforeAll(async () => {
  model = await startScriptedModel();
  sandbox = makeSandbox();
});
afterAll(async () => model?.close());

const everything = () => parseConfig(`mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'agent.yaml', {}).servers;

async function agentWith(settings: Omit<AgentSettings, 'model'>): Promise<{ agent: Agent; events: AgentEvent[] }> {
  const agent = await Agent.start(everything(), { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 't' }, approve: async () => 'yes', ...settings });
  const events: AgentEvent[] = [];
  agent.on('event', (e) => events.push(e));
  return { agent, events };
}

/** Runs one turn in which the model calls `tool` once; returns the text of that tool's result. */
async function callOnce(agent: Agent, tool: string, args: Record<string, unknown>, between: Parameters<ScriptedModel['push']> = []): Promise<string> {
  model.push({ toolCalls: [{ name: tool, arguments: args }] }, ...between, { text: 'done' });
  await agent.ask(`use ${tool}`);
  return messageText(lastToolResults(model.requests.at(-1)!)[0]);
}

describe('sampling', () => {
  it('answers a server\'s request with the agent\'s model after approval, with its system prompt and token limit', async () => {
    const asked: SamplingRequest[] = [];
    const { agent, events } = await agentWith({ approveSampling: async (r) => (asked.push(r), true) });
    expect(agent.toolNames).toContain('trigger-sampling-request');
    const before = model.requests.length;
    const result = await callOnce(agent, 'trigger-sampling-request', { prompt: 'Say hello in French', maxTokens: 40 }, [{ text: 'Bonjour !' }]);
    // The server's request reached the model as a request of its own.
    const sampled = model.requests[before + 1].body;
    expect(sampled.messages[0]).toMatchObject({ role: 'system', content: 'You are a helpful test server.' });
    expect(messageText(sampled.messages[1])).toContain('Say hello in French');
    expect(sampled.max_tokens).toBe(40);
    expect(sampled.temperature).toBe(0.7);
    expect(sampled.tools).toBeUndefined();
    expect(asked).toEqual([expect.objectContaining({ server: 'everything', maxTokens: 40, systemPrompt: 'You are a helpful test server.' })]);
    expect(asked[0].messages[0].text).toContain('Say hello in French');
    expect(result).toContain('Bonjour !');
    expect(result).toContain('"model": "scripted"');
    expect(events).toContainEqual(expect.objectContaining({ type: 'sampling', server: 'everything', decision: 'yes', response: 'Bonjour !' }));
    await agent.close();
  }, 30_000);

  it('sends the server the spec\'s error when the user declines, and never asks the model', async () => {
    const { agent, events } = await agentWith({ approveSampling: async () => false });
    const before = model.requests.length;
    const result = await callOnce(agent, 'trigger-sampling-request', { prompt: 'anything' });
    expect(model.requests.length - before).toBe(2); // the turn's two steps, no sampling request
    expect(result).toMatch(/declined the sampling request/);
    expect(events).toContainEqual(expect.objectContaining({ type: 'sampling', decision: 'no' }));
    await agent.close();
  }, 30_000);

  it('is not offered when nothing approves it', async () => {
    const { agent } = await agentWith({});
    expect(agent.toolNames).not.toContain('trigger-sampling-request');
    expect(agent.toolNames).not.toContain('trigger-elicitation-request');
    expect(agent.toolNames).not.toContain('get-roots-list');
    await agent.close();
  }, 30_000);
});

describe('elicitation', () => {
  it('passes a form to the user and the checked answer back to the server', async () => {
    const asked: ElicitationRequest[] = [];
    const { agent, events } = await agentWith({ elicit: async (r) => (asked.push(r), { action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7, untitledSingleSelectEnum: 'Rachel' } }) });
    const result = await callOnce(agent, 'trigger-elicitation-request', {});
    expect(asked[0]).toMatchObject({ server: 'everything', message: 'Please provide inputs for the following fields:' });
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('- Favorite Integer: 7');
    expect(events).toContainEqual(expect.objectContaining({ type: 'elicitation', mode: 'form', action: 'accept' }));
    await agent.close();
  }, 30_000);

  it('never sends an answer that does not fit the form', async () => {
    const { agent } = await agentWith({ elicit: async () => ({ action: 'accept', content: { name: 'Ada', integer: 500, untitledSingleSelectEnum: 'Gunther' } }) });
    const result = await callOnce(agent, 'trigger-elicitation-request', {});
    expect(result).toMatch(/does not fit it: integer: must be at most 100; untitledSingleSelectEnum: must be one of Monica/);
    expect(result).not.toContain('User provided the requested information');
    await agent.close();
  }, 30_000);

  it('reports decline and cancel to the server', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { agent } = await agentWith({ elicit: async () => ({ action }) });
      const result = await callOnce(agent, 'trigger-elicitation-request', {});
      expect(result).toMatch(action === 'decline' ? /User declined/ : /User cancelled/);
      await agent.close();
    }
  }, 30_000);

  it('shows a URL request with its URL', async () => {
    const asked: ElicitationRequest[] = [];
    const { agent } = await agentWith({ elicit: async (r) => (asked.push(r), { action: 'accept' }) });
    const result = await callOnce(agent, 'trigger-url-elicitation', { url: 'https://example.com/authorize', message: 'Sign in to continue.' });
    expect(asked[0]).toMatchObject({ mode: 'url', url: 'https://example.com/authorize', message: 'Sign in to continue.' });
    expect(result).toContain('User completed the URL elicitation flow');
    await agent.close();
  }, 30_000);

  it('is declined in -p mode, even with --yes when the form\'s required field has no default', async () => {
    // Without --yes, -p refuses the tool call itself (nobody to approve it); with it, the form is filled with
    // its defaults only when they fill it, and server-everything's "name" has none.
    const config = writeConfig(sandbox, `mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'elicit.yaml');
    model.push({ toolCalls: [{ name: 'trigger-elicitation-request', arguments: {} }] }, { text: 'ok' });
    const run = await runSluice(['agent', '-c', config, '-p', 'ask me', '--yes', '--model', 'compatible:scripted', '--base-url', model.url]);
    expect(run.code).toBe(0);
    expect(messageText(lastToolResults(model.requests.at(-1)!)[0])).toMatch(/User declined/);
    expect(run.stderr).toMatch(/everything's form: decline/);
  }, 60_000);
});

describe('roots', () => {
  it('offers the given directories, and tells servers when they change', async () => {
    const other = path.join(sandbox, 'other');
    mkdirSync(other, { recursive: true });
    const { agent } = await agentWith({ roots: [sandbox] });
    const first = await callOnce(agent, 'get-roots-list', {});
    expect(first).toContain(`URI: ${pathToFileURL(sandbox).href}`);
    expect(first).toMatch(/Current MCP Roots \(1 total\)/);
    await agent.setRoots([sandbox, other]);
    await new Promise((r) => setTimeout(r, 300)); // the server asks for the new list
    const second = await callOnce(agent, 'get-roots-list', {});
    expect(second).toMatch(/Current MCP Roots \(2 total\)/);
    expect(second).toContain(`URI: ${pathToFileURL(other).href}`);
    await agent.close();
  }, 30_000);

  it('refuses a root that is not a directory', async () => {
    await expect(agentWith({ roots: [path.join(sandbox, 'hello.txt')] })).rejects.toThrow(/root .*hello\.txt is not a directory/);
  });
});
