import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { CLI, EVERYTHING, FILESYSTEM, makeSandbox, ROOT } from '../helpers/servers.js';
import { writeConfig } from '../helpers/sluice-cli.js';
import { waitFor } from '../helpers/wait.js';

const SESSION = `sluice-agent-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', SESSION, '-S', '-50');

let model: ScriptedModel;
let sandbox: string;

beforeAll(async () => {
  if (!existsSync('/usr/bin/tmux')) throw new Error('tmux is missing: apt-get install tmux (.ci/run does this)');
  model = await startScriptedModel();
  sandbox = makeSandbox();
});
afterAll(async () => {
  try {
    tmux('kill-session', '-t', SESSION);
  } catch {
    // already gone
  }
  await model?.close();
});

describe('sluice agent in a real terminal', () => {
  it('streams a chat turn and asks for one approval at the prompt', async () => {
    const config = writeConfig(sandbox, `mcpServers:\n  files:\n    command: node\n    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`, 'agent.yaml');
    const target = path.join(sandbox, 'from-the-agent.txt');
    model.push({ toolCalls: [{ name: 'files__write_file', arguments: { path: target, content: 'written by the agent' } }] }, { text: 'I wrote the file for you.' });
    const command = [process.execPath, '--import', 'tsx', CLI, 'agent', '-c', config, '--model', 'compatible:scripted', '--base-url', model.url].map((a) => `'${a}'`).join(' ');
    tmux('new-session', '-d', '-s', SESSION, '-x', '160', '-y', '40', '-c', ROOT, command);
    await waitFor(() => /^>/m.test(screen()), 20_000, 'the chat prompt');
    tmux('send-keys', '-t', SESSION, 'Please write the file', 'Enter');
    await waitFor(() => /Allow files__write_file .*\[y\]es \/ \[n\]o \/ \[a\]lways:/.test(screen().replace(/\n/g, '')), 20_000, 'the approval question');
    expect(existsSync(target)).toBe(false); // nothing happens before the answer
    tmux('send-keys', '-t', SESSION, 'y', 'Enter');
    await waitFor(() => screen().includes('I wrote the file for you.'), 20_000, 'the answer');
    expect(readFileSync(target, 'utf8')).toBe('written by the agent');
    expect(screen()).toMatch(/→ files__write_file/);
    tmux('send-keys', '-t', SESSION, 'Enter');
  }, 60_000);
});
