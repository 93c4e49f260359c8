import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { runInspector } from '../helpers/inspector.js';
import { CLI, defaultYaml, makeSandbox } from '../helpers/servers.js';

// The MCP Inspector's headless CLI: a third-party client that people reach for first when something is off.

const STATIC_URI = 'demo://resource/static/document/architecture.md';

let gw: TestGateway;
let configFile: string;

beforeAll(async () => {
  const sandbox = makeSandbox();
  gw = await startTestGateway(defaultYaml(sandbox));
  configFile = path.join(sandbox, 'sluice.yaml');
  writeFileSync(configFile, defaultYaml(sandbox));
});

afterAll(async () => gw?.stop());

describe('inspector-cli over Streamable HTTP', () => {
  it('lists tools', async () => {
    const run = await runInspector([gw.url, '--method', 'tools/list']);
    expect(run.code).toBe(0);
    const names = run.json().tools.map((t: { name: string }) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('everything__get-sum');
    expect(names).toContain('files__read_text_file');
  });

  it('calls a tool with typed arguments', async () => {
    const run = await runInspector([gw.url, '--method', 'tools/call', '--tool-name', 'everything__get-sum', '--tool-arg', 'a=2', 'b=3']);
    expect(run.code).toBe(0);
    const result = run.json();
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }]);
  });

  it('reads a static resource', async () => {
    const run = await runInspector([gw.url, '--method', 'resources/read', '--uri', STATIC_URI]);
    expect(run.code).toBe(0);
    const [content] = run.json().contents;
    expect(content.uri).toBe(STATIC_URI);
    expect(content.mimeType).toBe('text/markdown');
    expect(content.text.length).toBeGreaterThan(100);
  });

  it('gets a prompt with arguments', async () => {
    const run = await runInspector([gw.url, '--method', 'prompts/get', '--prompt-name', 'everything__args-prompt', '--prompt-args', 'city=Paris']);
    expect(run.code).toBe(0);
    expect(run.json().messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Paris?" } }]);
  });

  it('fails with a non-zero exit and a message for a resource no server has', async () => {
    const run = await runInspector([gw.url, '--method', 'resources/read', '--uri', 'demo://nowhere/at/all']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('demo://nowhere/at/all');
  });
});

describe('inspector-cli over stdio (sluice serve --stdio --no-http)', () => {
  // The inspector's own launcher takes `--config` for itself, so sluice gets the short `-c`.
  const sluice = () => ['node', '--import', 'tsx', CLI, 'serve', '--stdio', '--no-http', '-c', configFile];

  it('lists tools', async () => {
    const run = await runInspector([...sluice(), '--method', 'tools/list']);
    expect(run.code).toBe(0);
    const names = run.json().tools.map((t: { name: string }) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('files__read_text_file');
  });

  it('calls a tool', async () => {
    const run = await runInspector([...sluice(), '--method', 'tools/call', '--tool-name', 'everything__get-sum', '--tool-arg', 'a=2', 'b=3']);
    expect(run.code).toBe(0);
    expect(run.json().content).toEqual([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }]);
  });

  it('reads a resource and gets a prompt', async () => {
    const [read, prompt] = await Promise.all([
      runInspector([...sluice(), '--method', 'resources/read', '--uri', STATIC_URI]),
      runInspector([...sluice(), '--method', 'prompts/get', '--prompt-name', 'everything__args-prompt', '--prompt-args', 'city=Paris']),
    ]);
    expect(read.code).toBe(0);
    expect(read.json().contents[0].uri).toBe(STATIC_URI);
    expect(prompt.code).toBe(0);
    expect(prompt.json().messages[0].content.text).toBe("What's weather in Paris?");
  });
});
