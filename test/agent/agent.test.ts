import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import type { ServerConfig } from '../../src/config/schema.js';
import { parseConfig } from '../../src/config/load.js';
import { connectDirectEverything } from '../helpers/clients.js';
import { imageParts, lastToolResults, messageText, startScriptedModel, systemPrompt, toolNames, type ScriptedModel } from '../helpers/scripted-model.js';
import { defaultYaml, everythingYaml, FILESYSTEM, FIXTURE, makeSandbox } from '../helpers/servers.js';
import { startTestGateway } from '../helpers/gateway.js';

let model: ScriptedModel;
let sandbox: string;
let servers: ServerConfig[];

beforeAll(async () => {
  model = await startScriptedModel();
  sandbox = makeSandbox();
  // The same two servers the gateway tests use; the agent reads only their mcpServers entries.
  servers = parseConfig(defaultYaml(sandbox), 'agent.yaml', {}).servers;
});
afterAll(async () => model?.close());

async function agentWith(options: Partial<Parameters<typeof Agent.start>[1]> = {}): Promise<Agent> {
  return Agent.start(servers, { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 'test' }, ...options });
}

describe('the agent against real servers and a scripted model', () => {
  it('sends a catalog, not content, and the whole resource after read_resource', async () => {
    const direct = await connectDirectEverything();
    const { resources } = await direct.listResources();
    const target = resources.find((r) => r.uri.endsWith('architecture.md'))!;
    const fullText = ((await direct.readResource({ uri: target.uri })).contents[0] as { text: string }).text;
    await direct.close();

    const agent = await agentWith();
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'read_resource', arguments: { uri: target.uri } }] }, { text: 'It describes the architecture.' });
    const answer = await agent.ask('What does the architecture document say?');
    expect(answer).toBe('It describes the architecture.');

    const [first, second] = model.requests.slice(before);
    const system = systemPrompt(first);
    expect(system).toContain(target.uri);
    expect(system).not.toContain(fullText.slice(0, 200));
    expect(toolNames(first)).toEqual(expect.arrayContaining(['read_resource', 'invoke_prompt', 'everything__echo', 'files__read_text_file']));
    expect(toolNames(first)).not.toContain('search_catalog');
    // Real tools arrive with their full schemas.
    expect(first.body.tools!.find((t) => t.function.name === 'files__read_text_file')!.function.parameters).toMatchObject({ properties: { path: { type: 'string' } } });
    const results = lastToolResults(second);
    expect(results).toHaveLength(1);
    expect(messageText(results[0])).toContain(fullText);
    await agent.close();
  });

  it('sends the tiny image from a tool result as an image part to a vision model, and a descriptor otherwise', async () => {
    for (const vision of [true, false]) {
      const agent = await Agent.start(servers, { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 'test', vision } });
      const before = model.requests.length;
      model.push({ toolCalls: [{ name: 'everything__get-tiny-image', arguments: {} }] }, { text: 'A tiny image.' });
      await agent.ask('Show me the tiny image.');
      const second = model.requests[before + 1];
      const images = imageParts(second);
      if (vision) {
        expect(images).toHaveLength(1);
        expect(images[0].mediaType).toBe('image/png');
        expect(images[0].data!.subarray(1, 4).toString()).toBe('PNG');
      } else {
        expect(images).toHaveLength(0);
        expect(messageText(lastToolResults(second)[0])).toMatch(/image\/png/);
      }
      await agent.close();
    }
  });

  it('places a prompt\'s messages into the conversation as real turns, and lists missing arguments', async () => {
    const agent = await agentWith();
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'invoke_prompt', arguments: { name: 'everything__args-prompt', arguments: {} } }] },
      { toolCalls: [{ name: 'invoke_prompt', arguments: { name: 'everything__args-prompt', arguments: { city: 'Paris', state: 'Texas' } } }] },
      { text: 'Done.' },
    );
    await agent.ask('Use the args prompt.');
    const second = model.requests[before + 1];
    expect(messageText(lastToolResults(second)[0])).toMatch(/needs "city"/);
    const third = model.requests[before + 2];
    const tail = third.body.messages.slice(-1)[0];
    expect(tail.role).toBe('user');
    expect(messageText(tail)).toMatch(/Paris/);
    await agent.close();
  });

  it('answers an unknown URI with the closest matches, not a dump', async () => {
    const agent = await agentWith();
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'read_resource', arguments: { uri: 'demo://resource/static/document/architecture.mdx' } }] }, { text: 'ok' });
    await agent.ask('read it');
    const text = messageText(lastToolResults(model.requests[before + 1])[0]);
    expect(text).toMatch(/No resource has the URI .*Closest: demo:\/\/resource\/static\/document\/architecture\.md/);
    expect(text.split(',').length).toBeLessThan(6);
    await agent.close();
  });

  it('switches to a summary and search_catalog past the budget, and finds entries with it', async () => {
    const agent = await agentWith({ catalogBudget: 50 });
    expect(agent.catalog.summarised).toBe(true);
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'search_catalog', arguments: { query: 'architecture' } }] }, { text: 'found' });
    await agent.ask('find the architecture doc');
    const first = model.requests[before];
    expect(toolNames(first)).toContain('search_catalog');
    expect(systemPrompt(first)).toMatch(/everything: \d+ resources/);
    expect(messageText(lastToolResults(model.requests[before + 1])[0])).toMatch(/architecture\.md/);
    await agent.close();
  });

  it('asks before a write tool, and runs read-only tools without asking', async () => {
    const asked: string[] = [];
    const agent = await agentWith({ approve: async (r) => (asked.push(r.tool), 'no') });
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'files__read_text_file', arguments: { path: path.join(sandbox, 'hello.txt') } }, { name: 'files__write_file', arguments: { path: path.join(sandbox, 'x.txt'), content: 'x' } }] },
      { text: 'ok' },
    );
    await agent.ask('read then write');
    expect(asked).toEqual(['files__write_file']);
    const results = lastToolResults(model.requests[before + 1]).map(messageText);
    expect(results[0]).toContain('hello from the sandbox');
    expect(results[1]).toMatch(/did not approve/);
    expect(() => readFileSync(path.join(sandbox, 'x.txt'))).toThrow();
    await agent.close();
  });
});

describe('the agent with the fixture server', () => {
  let fixtureServers: ServerConfig[];
  let descriptionFile: string;
  beforeAll(() => {
    descriptionFile = path.join(sandbox, 'tool-description.txt');
    writeFileSync(descriptionFile, 'first description');
    fixtureServers = parseConfig(`mcpServers:
  fx:
    command: node
    args: [--import, tsx, ${JSON.stringify(FIXTURE)}]
    env: { FIXTURE_MUTABLE_FILE: ${JSON.stringify(descriptionFile)} }
`, 'agent.yaml', {}).servers;
  });

  it('reads a PDF as text with page markers, and a binary archive as an honest descriptor', async () => {
    const agent = await Agent.start(fixtureServers, { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 'test' } });
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'read_resource', arguments: { uri: 'fixture://two-pages.pdf' } }, { name: 'read_resource', arguments: { uri: 'fixture://notes.tar.gz' } }] }, { text: 'ok' });
    await agent.ask('read both');
    const [pdf, archive] = lastToolResults(model.requests[before + 1]).map(messageText);
    expect(pdf).toMatch(/--- page 1 of 2 ---[\s\S]*--- page 2 of 2 ---/);
    expect(archive).toMatch(/^\[Binary resource: application\/gzip, \d+ bytes, uri fixture:\/\/notes\.tar\.gz/);
    expect(archive).not.toMatch(/notes notes/);
    await agent.close();
  });

  it('refreshes the tools after a server\'s list_changed, before the next turn', async () => {
    const agent = await Agent.start(fixtureServers, { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 'test' } });
    model.push({ text: 'one' });
    await agent.ask('first');
    const described = (req: (typeof model.requests)[number]) => req.body.tools?.find((t) => t.function.name === 'mutable_tool')?.function.description;
    expect(described(model.requests.at(-1)!)).toBe('first description');
    writeFileSync(descriptionFile, 'second description');
    await new Promise((r) => setTimeout(r, 500)); // the server notices the file and announces the change
    model.push({ text: 'two' });
    await agent.ask('second');
    expect(described(model.requests.at(-1)!)).toBe('second description');
    await agent.close();
  });

  it('lists tools by name and one line past the tool budget, with load_tool_schema for the rest', async () => {
    const agent = await Agent.start(fixtureServers, { toolBudget: 100, model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 'test' } });
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'load_tool_schema', arguments: { names: ['test_sampling'] } }] }, { text: 'ok' });
    await agent.ask('what does test_sampling take?');
    const first = model.requests[before];
    expect(toolNames(first)).toContain('load_tool_schema');
    expect(first.body.tools!.find((t) => t.function.name === 'test_sampling')!.function.parameters).toEqual({ type: 'object', additionalProperties: true });
    expect(messageText(lastToolResults(model.requests[before + 1])[0])).toMatch(/"prompt"/);
    await agent.close();
  });
});

describe('the agent through a sluice gateway', () => {
  it('uses the gateway\'s tools under their merged names, and the gateway\'s rules still apply', async () => {
    const gw = await startTestGateway(
      everythingYaml().replace('roles:\n  open:\n    default: allow', 'roles:\n  open:\n    default: allow\n    tools: { "everything__get-env": deny }'),
    );
    try {
      const viaGateway = parseConfig(`mcpServers:\n  sluice:\n    type: http\n    url: ${gw.url}\n`, 'agent.yaml', {}).servers;
      const agent = await Agent.start(viaGateway, { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 'test' } });
      expect(agent.toolNames).toContain('everything__echo');
      expect(agent.toolNames).not.toContain('everything__get-env');
      const before = model.requests.length;
      model.push({ toolCalls: [{ name: 'everything__echo', arguments: { message: 'through the gateway' } }] }, { text: 'done' });
      await agent.ask('echo something');
      expect(messageText(lastToolResults(model.requests[before + 1])[0])).toBe('Echo: through the gateway');
      await agent.close();
    } finally {
      await gw.stop();
    }
  });

  it('offers read_resource and invoke_prompt only when some server has resources or prompts', async () => {
    const filesOnly = parseConfig(`mcpServers:\n  files:\n    command: node\n    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]\n`, 'agent.yaml', {}).servers;
    const agent = await Agent.start(filesOnly, { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 'test' } });
    expect(agent.toolNames).not.toContain('read_resource');
    expect(agent.toolNames).not.toContain('invoke_prompt');
    expect(agent.system).not.toMatch(/read_resource/);
    await agent.close();
  });
});
