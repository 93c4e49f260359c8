import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { CLI, EVERYTHING, FILESYSTEM, makeSandbox, ROOT } from '../helpers/servers.js';
import { writeConfig } from '../helpers/sluice-cli.js';
import { startTerminal, type TestTerminal } from '../helpers/terminal.js';
import { waitFor } from '../helpers/wait.js';

let model: ScriptedModel;
let sandbox: string;
let terminal: TestTerminal | undefined;

beforeAll(async () => {
  model = await startScriptedModel();
  sandbox = makeSandbox();
});
afterAll(async () => {
  terminal?.close();
  await model?.close();
});

describe('sluice agent in a real terminal', () => {
  it('streams a chat turn and asks for one approval at the prompt', async () => {
    const config = writeConfig(sandbox, `mcpServers:\n  files:\n    command: node\n    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'agent.yaml');
    const target = path.join(sandbox, 'from-the-agent.txt');
    model.push({ toolCalls: [{ name: 'files__write_file', arguments: { path: target, content: 'written by the agent' } }] }, { text: 'I wrote the file for you.' });
    // The filesystem server takes the client's roots in place of its arguments: the sandbox is offered as one.
    // A pseudo-terminal of a fixed size, rendered by a headless xterm: the CLI sees a TTY, the test reads its screen.
    const term = (terminal = startTerminal(process.execPath, ['--import', 'tsx', CLI, 'agent', '-c', config, '--model', 'compatible:scripted', '--base-url', model.url, '--root', sandbox], { cwd: ROOT, cols: 160, rows: 40 }));
    await waitFor(() => /^>/m.test(term.screen()), 20_000, 'the chat prompt');
    term.type('Please write the file\r');
    await waitFor(() => /Allow files__write_file .*\[y\]es \/ \[n\]o \/ \[a\]lways:/.test(term.screen().replace(/\n/g, '')), 20_000, 'the approval question');
    expect(existsSync(target)).toBe(false); // nothing happens before the answer
    term.type('y\r');
    await waitFor(() => term.screen().includes('I wrote the file for you.'), 20_000, 'the answer');
    expect(readFileSync(target, 'utf8')).toBe('written by the agent');
    expect(term.screen()).toMatch(/→ files__write_file/);
    term.type('\r'); // an empty line quits
    await waitFor(() => term.exit !== undefined, 20_000, 'the agent to quit');
    expect(term.exit?.exitCode).toBe(0);
  }, 60_000);
});
