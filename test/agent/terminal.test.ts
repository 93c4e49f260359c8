import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastToolResults, messageText, startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
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

  it('asks a server\'s form field by field, checks each answer, and asks before the model answers a server', async () => {
    const config = writeConfig(sandbox, `mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'forms.yaml');
    model.push({ toolCalls: [{ name: 'trigger-elicitation-request', arguments: {} }] }, { text: 'Thanks for the form.' });
    const term = (terminal = startTerminal(process.execPath, ['--import', 'tsx', CLI, 'agent', '-c', config, '--model', 'compatible:scripted', '--base-url', model.url], { cwd: ROOT, cols: 160, rows: 60 }));
    const flat = () => term.screen().replace(/\n/g, '');
    const answer = async (prompt: RegExp, keys: string) => {
      await waitFor(() => prompt.test(flat()), 20_000, String(prompt));
      term.type(`${keys}\r`);
    };
    await waitFor(() => /^>/m.test(term.screen()), 20_000, 'the chat prompt');
    term.type('Fill in the form\r');
    await answer(/Allow trigger-elicitation-request .*\[a\]lways: $/, 'y');
    await answer(/everything asks: Please provide inputs.*\[a\]nswer \/ \[d\]ecline \/ \[c\]ancel: $/, 'a');
    await answer(/String\* \(Your full, legal name\): $/, 'Ada Lovelace');
    await answer(/Boolean \(Agree to the terms and conditions; y\/n\): $/, 'y');
    await answer(/String with default \(Favorite first line of a story\) \[It was a dark and stormy night\.\]: $/, '');
    await answer(/String with email format \(.*\): $/, 'not-an-address');
    await answer(/must be an email address.*String with email format \(.*\): $/, 'ada@example.org');
    await answer(/String with uri format \(.*\): $/, '');
    await answer(/String with date format \(.*\): $/, '');
    await answer(/Integer \(.*\) \[42\]: $/, '500');
    await answer(/must be at most 100.*Integer \(.*\) \[42\]: $/, '7');
    for (const label of ['Number in range 1-1000', 'Untitled Single Select Enum', 'Untitled Multiple Select Enum', 'Titled Single Select Enum', 'Titled Multiple Select Enum']) {
      await answer(new RegExp(`${label} \\(.*\\) \\[[^\\]]*\\]: $`), label === 'Untitled Single Select Enum' ? '2' : '');
    }
    await answer(/Legacy Titled Single Select Enum \(.*\) \[pet-1\]: $/, '');
    await waitFor(() => flat().includes('Thanks for the form.'), 20_000, 'the answer');
    const text = messageText(lastToolResults(model.requests.at(-1)!)[0]);
    expect(text).toContain('Name: Ada Lovelace');
    expect(text).toContain('Email: ada@example.org');
    expect(text).toContain('Favorite Integer: 7');
    expect(text).toContain('"untitledSingleSelectEnum": "Rachel"');

    // A server's sampling request: shown, and sent to the model only after a yes.
    model.push({ toolCalls: [{ name: 'trigger-sampling-request', arguments: { prompt: 'Name a colour' } }] }, { text: 'Teal.' }, { text: 'The model said teal.' });
    term.type('Sample something\r');
    await answer(/Allow trigger-sampling-request .*\[a\]lways: $/, 'y');
    await answer(/everything asks the model \(compatible:scripted\) for a completion, at most 100 tokens:.*system: You are a helpful test server\..*user: Resource trigger-sampling-request context: Name a colour.*Send this to the model\? \[y\]es \/ \[n\]o: $/, 'y');
    await waitFor(() => flat().includes('The model said teal.'), 20_000, 'the second answer');
    expect(flat()).toMatch(/← the model answered everything: Teal\./);
    term.type('\r');
    await waitFor(() => term.exit !== undefined, 20_000, 'the agent to quit');
    expect(term.exit?.exitCode).toBe(0);
  }, 90_000);

  it('keeps the chat going after the model failed a turn, with one line saying why', async () => {
    const config = writeConfig(sandbox, `mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'chat.yaml');
    model.push({ error: { status: 500, message: 'overloaded' } }, { error: { status: 500, message: 'overloaded' } }, { text: 'Back again.' });
    const term = (terminal = startTerminal(process.execPath, ['--import', 'tsx', CLI, 'agent', '-c', config, '--model', 'compatible:scripted', '--base-url', model.url], { cwd: ROOT, cols: 200, rows: 30 }));
    await waitFor(() => /^>/m.test(term.screen()), 20_000, 'the chat prompt');
    term.type('first try\r');
    await waitFor(() => /\nsluice agent: the model at \S+ failed: HTTP 500: overloaded \(2 attempts\)\n>\s*$/.test(term.screen()), 20_000, 'the error and a new prompt');
    expect(term.screen()).not.toMatch(/RetryError|\n\s+at /);
    term.type('second try\r');
    await waitFor(() => term.screen().includes('Back again.'), 20_000, 'the answer');
    term.type('\r');
    await waitFor(() => term.exit !== undefined, 20_000, 'the agent to quit');
    expect(term.exit?.exitCode).toBe(0);
  }, 60_000);
});
