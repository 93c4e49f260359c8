import { readdirSync, readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import { parseConfig } from '../../src/config/load.js';
import { startTestGateway } from '../helpers/gateway.js';
import { lastToolResults, messageText, startScriptedModel, systemPrompt, type ScriptedModel } from '../helpers/scripted-model.js';
import { EVERYTHING, makeSandbox } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';
import { freePort } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

let model: ScriptedModel;
let sandbox: string;
let everythingConfig: string;

beforeAll(async () => {
  model = await startScriptedModel();
  sandbox = makeSandbox();
  everythingConfig = writeConfig(sandbox, `mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'everything.yaml');
});
afterAll(async () => model?.close());

const scripted = () => ['--model', 'compatible:scripted', '--base-url', model.url];
const everything = () => parseConfig(`mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'agent.yaml', {}).servers;
const DOC = 'demo://resource/static/document/architecture.md';

/** Whether some process on this machine has `marker` among its arguments. */
function runningWith(marker: string): boolean {
  return readdirSync('/proc').some((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
    } catch {
      return false;
    }
  });
}

/** What a person sees on stderr: no stack frames, no SDK error names, no request bodies. */
function expectCleanError(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/RetryError|APICallError|AI_/);
  expect(stderr).not.toMatch(/You are a helpful assistant/);
}

describe('the agent when the model fails', () => {
  it('names the URL and the reason in one line when the model server is down, and exits 1', async () => {
    const port = await freePort();
    const run = await runSluice(['agent', '-c', everythingConfig, '-p', 'hello', '--model', 'compatible:m', '--base-url', `http://127.0.0.1:${port}/v1`]);
    expect(run.code).toBe(1);
    expectCleanError(run.stderr);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`sluice agent: cannot reach the model at http://127.0.0.1:${port}/v1/chat/completions: connection refused (ECONNREFUSED) (2 attempts)`);
  }, 60_000);

  it('says the model answered HTTP 500 with its message, not the SDK\'s error dump', async () => {
    model.push({ error: { status: 500, message: 'the GPU caught fire' } }, { error: { status: 500, message: 'the GPU caught fire' } });
    const run = await runSluice(['agent', '-c', everythingConfig, '-p', 'hello', ...scripted()]);
    expect(run.code).toBe(1);
    expectCleanError(run.stderr);
    expect(run.stderr.trim()).toBe(`sluice agent: the model at ${model.url}/chat/completions failed: HTTP 500: the GPU caught fire (2 attempts)`);
  }, 60_000);
});

describe('the agent when a server cannot start', () => {
  const brokenConfig = () =>
    writeConfig(sandbox, `mcpServers:\n  broken:\n    command: definitely-not-a-command-7f3a\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'broken.yaml');

  it('goes on with the servers that work, says which failed and why, and exits', async () => {
    model.push({ toolCalls: [{ name: 'echo', arguments: { message: 'still here' } }] }, { text: 'The echo said still here.' });
    const run = await runSluice(['agent', '-c', brokenConfig(), '-p', 'echo something', '--yes', ...scripted()]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('sluice agent: server broken: cannot start "definitely-not-a-command-7f3a": command not found (going on without it)');
    expect(run.stdout).toContain('The echo said still here.');
    // With one server left, its tools keep their own names.
    expect(messageText(lastToolResults(model.requests.at(-1)!)[0])).toBe('Echo: still here');
  }, 60_000);

  it('stops with exit code 2 under --strict', async () => {
    const before = model.requests.length;
    const run = await runSluice(['agent', '-c', brokenConfig(), '-p', 'hello', '--strict', ...scripted()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/server broken: cannot start "definitely-not-a-command-7f3a": command not found\n.*stopping \(--strict\)/);
    expect(model.requests.length).toBe(before);
  }, 60_000);

  it('leaves out a server that never answers, after the connect timeout, and closes it', async () => {
    const marker = `silent-${process.pid}`;
    const silent = parseConfig(`mcpServers:\n  silent:\n    command: node\n    args: [-e, "setInterval(() => {}, 1000)", ${marker}]\n`, 'agent.yaml', {}).servers;
    const started = Date.now();
    const agent = await Agent.start([...silent, ...everything()], { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 't' }, connectTimeoutMs: 1500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(agent.failures).toEqual([{ name: 'silent', reason: expect.stringMatching(/^"node" did not answer within 1\.5 s/) }]);
    expect(agent.offers.map((o) => o.name)).toEqual(['everything']);
    // The server that never answered was stopped, not left running.
    await waitFor(() => !runningWith(marker), 5000, 'the silent server to be stopped');
    await agent.close();
  }, 30_000);
});

describe('the agent and a gateway that is down or refuses', () => {
  it('names the gateway\'s URL when it cannot be reached', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const run = await runSluice(['agent', '--gateway', url, '-p', 'hello', ...scripted()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`sluice agent: server sluice: cannot reach the gateway at ${url}: connection refused (ECONNREFUSED)`);
    expectCleanError(run.stderr);
  }, 60_000);

  it('says the gateway refused the token, not the raw JSON-RPC body', async () => {
    const gw = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\nauth:\n  required: true\nagents:\n  alice: { role: open }\nroles:\n  open: { default: allow }\nmcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
    try {
      const run = await runSluice(['agent', '--gateway', gw.url, '--token', 'not-a-real-token', '-p', 'hello', ...scripted()]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`server sluice: the gateway at ${gw.url.replace(/[.]/g, '\\.')} refused the token \\(HTTP 401\\)`));
      expect(run.stderr).not.toContain('"jsonrpc"');
    } finally {
      await gw.stop();
    }
  }, 60_000);
});

describe('the agent and a model that writes bad tool calls', () => {
  it('tells the model its arguments were not valid JSON, keeps its text in the history, and lets it retry', async () => {
    const agent = await Agent.start(everything(), { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 't' } });
    const broken = `{"uri": "${DOC}"`; // the closing brace is missing, as small local models often do
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'read_resource', arguments: broken }, { name: 'echo', arguments: '{"message": "hi"' }] },
      { toolCalls: [{ name: 'read_resource', arguments: { uri: DOC } }] },
      { text: 'Read it on the second try.' },
    );
    const answer = await agent.ask('What does the architecture doc say?');
    expect(answer).toBe('Read it on the second try.');
    const second = model.requests[before + 1];
    const [forRead, forEcho] = lastToolResults(second).map(messageText);
    for (const [text, raw] of [[forRead, broken], [forEcho, '{"message": "hi"']]) {
      expect(text).toMatch(/were not valid JSON \(/);
      expect(text).toContain(`You sent: ${raw}`);
      expect(text).not.toMatch(/needs a "uri"|invalid_type|ZodError/);
    }
    // The call the model made is in the history as it wrote it, not as "{}".
    const assistant = second.body.messages.filter((m) => m.role === 'assistant').at(-1)!;
    const sent = assistant.tool_calls!.map((c) => c.function.arguments);
    expect(sent).not.toContain('{}');
    expect(JSON.parse(sent[0])).toBe(broken);
    // The retry read the resource.
    expect(messageText(lastToolResults(model.requests[before + 2])[0])).toContain('architecture');
    await agent.close();
  }, 30_000);
});

describe('the step limit', () => {
  const loopForever = () => ({ toolCalls: [{ name: 'echo', arguments: { message: 'again' } }] });

  it('ends the turn with stoppedBy step-limit after maxSteps requests', async () => {
    const agent = await Agent.start(everything(), { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 't' }, maxSteps: 3, approve: async () => 'yes' });
    const before = model.requests.length;
    model.push(loopForever, loopForever, loopForever);
    const turn = await agent.turn('keep going');
    expect(turn).toMatchObject({ stoppedBy: 'step-limit', steps: 3 });
    expect(model.requests.length - before).toBe(3);
    await agent.close();
  }, 30_000);

  it('is said on stderr and gives exit code 3 from the command line', async () => {
    model.push(loopForever, loopForever);
    const run = await runSluice(['agent', '-c', everythingConfig, '-p', 'keep going', '--yes', '--max-steps', '2', ...scripted()]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('sluice agent: stopped after 2 model steps; the model was still calling tools (raise --max-steps)');
  }, 60_000);
});

describe('changes during a turn', () => {
  it('lets the model read a resource a tool created earlier in the same turn', async () => {
    const agent = await Agent.start(everything(), { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 't' }, approve: async () => 'yes' });
    const data = `data:text/plain;base64,${Buffer.from('made during the turn').toString('base64')}`;
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: 'gzip-file-as-resource', arguments: { name: 'made.txt.gz', data, outputType: 'resourceLink' } }] },
      (req) => {
        // The tool's resources/list_changed was applied before this step: the new resource is in the catalog.
        const uri = /(demo:\/\/resource\/session\/made\.txt\.gz)/.exec(systemPrompt(req))?.[1] ?? 'not-in-the-catalog';
        return { toolCalls: [{ name: 'read_resource', arguments: { uri } }] };
      },
      { text: 'done' },
    );
    await agent.ask('compress and read it');
    expect(systemPrompt(model.requests[before + 1])).toContain('demo://resource/session/made.txt.gz');
    expect(messageText(lastToolResults(model.requests[before + 2])[0])).toMatch(/^\[Binary resource: application\/gzip/);
    await agent.close();
  }, 30_000);
});

describe('server instructions', () => {
  it('count in the budget, are cut with a note past their share, and can be read whole', async () => {
    const agent = await Agent.start(everything(), { model: { model: 'compatible:scripted', baseURL: model.url, apiKey: 't' }, catalogBudget: 1500 });
    const whole = agent.offers[0].instructions!;
    expect(whole.length).toBeGreaterThan(1500);
    const base = agent.system.split('\n\n')[0];
    expect(countTokens(agent.system.slice(base.length))).toBeLessThanOrEqual(1500);
    expect(agent.system).toMatch(/\[cut at 300 of \d+ tokens; read_resource\("sluice-agent:\/\/instructions\/everything"\) gives them whole\]/);
    const before = model.requests.length;
    model.push({ toolCalls: [{ name: 'read_resource', arguments: { uri: 'sluice-agent://instructions/everything' } }] }, { text: 'ok' });
    await agent.ask('what do the server notes say?');
    expect(messageText(lastToolResults(model.requests[before + 1])[0])).toBe(whole.trim());
    await agent.close();
  }, 30_000);
});
