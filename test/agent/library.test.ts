import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentConfigError, createAgent, type AgentServer } from '../../src/agent/agent.js';
import { lastToolResults, messageText, startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { EVERYTHING } from '../helpers/servers.js';

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(async () => model?.close());

const scripted = { model: 'compatible:scripted', baseURL: '', apiKey: 't' };

describe('createAgent with mcpServers-shaped servers', () => {
  it('starts a command server as users write it and uses its tools', async () => {
    const agent = await createAgent({ servers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'], env: { GREETING: 'hi' } } }, model: { ...scripted, baseURL: model.url } });
    expect(agent.failures).toEqual([]);
    expect(agent.toolNames).toContain('echo');
    model.push({ toolCalls: [{ name: 'echo', arguments: { message: 'library' } }] }, { text: 'ok' });
    const turn = await agent.turn('echo');
    expect(turn).toEqual({ text: 'ok', steps: 2, stoppedBy: 'answer' });
    expect(messageText(lastToolResults(model.requests.at(-1)!)[0])).toBe('Echo: library');
    await agent.close();
  }, 30_000);

  it('refuses servers it could not use, with the name and what is wrong', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ 'bad name!': { command: 'x' } }, /server name "bad name!" may hold only/],
      [{ s: {} }, /server "s" needs either command .* or url/],
      [{ s: { command: 'x', url: 'http://127.0.0.1/mcp' } }, /server "s" needs either command/],
      [{ s: { url: 'ftp://example.com' } }, /must be an http:\/\/, https:\/\/, ws:\/\/ or wss:\/\/ URL/],
      [{ s: { command: 'x', args: 'not-a-list' } }, /server "s"/],
    ];
    for (const [servers, message] of cases) {
      const started = createAgent({ servers: servers as Record<string, AgentServer>, model: { ...scripted, baseURL: model.url } });
      await expect(started).rejects.toThrow(AgentConfigError);
      await expect(started).rejects.toThrow(message);
    }
    await expect(createAgent({ servers: [] as never, model: { ...scripted, baseURL: model.url } })).rejects.toThrow(/servers must be an object of named servers/);
  });
});
