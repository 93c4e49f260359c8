import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultYaml, makeSandbox, ROOT } from '../helpers/servers.js';
import { runSluice, spawnSluiceStdio, writeConfig } from '../helpers/sluice-cli.js';
import { waitFor } from '../helpers/wait.js';

let sandbox: string;
let configFile: string;

beforeAll(() => {
  sandbox = makeSandbox();
  configFile = writeConfig(sandbox, defaultYaml(sandbox));
});

// Listing, calling, reading, prompts, subscriptions, progress, cancellation and refusals over stdio are in
// test/contracts/front-doors.test.ts; this file keeps what only stdio has.

describe('stdout carries nothing but JSON-RPC', () => {
  it('keeps logs on stderr even at debug level, answers garbage with -32700, and exits when stdin closes', async () => {
    const file = writeConfig(sandbox, defaultYaml(sandbox).replace('logLevel: silent', 'logLevel: debug'), 'debug.yaml');
    const child = spawnSluiceStdio(file);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = once(child, 'exit');
    try {
      const send = (m: unknown) => child.stdin.write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`);
      const responses = () =>
        out
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as { id?: unknown });
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      await waitFor(() => out.includes('\n'), 20_000, 'the initialize response');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      send('this is not json');
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'only json here' } } });
      await waitFor(() => out.endsWith('\n') && [1, 2, 3].every((id) => responses().some((r) => r.id === id)) && responses().some((r) => r.id === null), 20_000, 'all responses');

      const lines = out.split('\n');
      expect(lines.pop()).toBe(''); // every message ends in a newline
      for (const line of lines) {
        const message = JSON.parse(line);
        expect(message.jsonrpc).toBe('2.0');
        expect('result' in message || 'error' in message || 'method' in message).toBe(true);
      }
      const byId = new Map(lines.map((l) => JSON.parse(l)).map((m) => [m.id, m]));
      expect(byId.get(1).result.serverInfo.name).toBe('sluice');
      expect(byId.get(2).result.tools.map((t: { name: string }) => t.name)).toContain('everything__echo');
      expect(byId.get(3).result.content).toEqual([{ type: 'text', text: 'Echo: only json here' }]);
      expect(byId.get(null).error.code).toBe(-32700);
      // The logs exist; they just went to stderr.
      expect(err).toContain('starting sluice');

      child.stdin.end();
      const [code] = await Promise.race([exited, new Promise<[string]>((r) => setTimeout(() => r(['still running']), 10_000))]);
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe('sluice config check', () => {
  it('accepts a good file: exit 0 and OK', async () => {
    const run = await runSluice(['config', 'check', configFile]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${configFile}: OK`);
    expect(run.stdout).toContain('everything, files');
  });

  it('rejects a bad file with file:line:col and the allowed values for every problem', async () => {
    const file = writeConfig(
      sandbox,
      ['listen: 127.0.0.1:0', 'logLevl: info', 'mcpServers:', '  everything:', '    command: node', '    args: [x, stdio]', '    mode: sometimes', ''].join('\n'),
      'bad.yaml',
    );
    const run = await runSluice(['config', 'check', file]);
    expect(run.code).not.toBe(0);
    const output = run.stdout + run.stderr;
    expect(output).toMatch(new RegExp(`${escape(file)}:2:1: logLevl: unknown key; allowed: .*\\blogLevel\\b`));
    expect(output).toMatch(new RegExp(`${escape(file)}:7:11: mcpServers\\.everything\\.mode: invalid value; allowed: "shared", "per-session"`));
    expect(output).toContain('2 problems');
    expect(run.stdout).not.toContain('OK');
  });

  // BUG (src/config/load.ts): a bad server name is reported as zod's bare "Invalid key in record", at the line of
  // the entry's first child instead of the name itself, without saying what names may hold. The schema's own
  // message ("server names may hold only A-Z a-z 0-9 _ - (at most 64)") sits in issue.issues[0] and is dropped.
  it('names the line of a bad server name and the characters a name may hold', async () => {
    const file = writeConfig(sandbox, ['mcpServers:', '  my server:', '    command: node', ''].join('\n'), 'bad-name.yaml');
    const run = await runSluice(['config', 'check', file]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(new RegExp(`${escape(file)}:2:3: mcpServers\\.my server: .*A-Z a-z 0-9 _ -`));
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a stdio client and a slow upstream', () => {
  it('is answered at once (initialize does not wait for upstreams); its first list waits for them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-stdio-slow-'));
    const slow = path.join(ROOT, 'test/fixtures/slow-start.mjs');
    const config = writeConfig(dir, `logLevel: error\ndataDir: ${JSON.stringify(path.join(dir, 'data'))}\nauth: { required: false, anonymousAgent: t, stdioAgent: t }\nagents:\n  t: { role: r }\nroles:\n  r: { default: allow }\nmcpServers:\n  slow:\n    command: node\n    args: [${JSON.stringify(slow)}, "8000"]\n`);
    const child = spawnSluiceStdio(config);
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
        buffer = buffer.slice(nl + 1);
      }
    });
    child.stderr.resume();
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    const answer = async (id: number) => {
      await waitFor(() => lines.some((l) => l.id === id), 20_000, `the answer to request ${id}`);
      return lines.find((l) => l.id === id) as { result: Record<string, unknown> };
    };
    const spawned = Date.now();
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow', version: '1' } } });
    expect((await answer(1)).result.serverInfo).toMatchObject({ name: 'sluice' });
    const answeredAfter = Date.now() - spawned;
    expect(answeredAfter).toBeLessThan(8000); // before the slow server could have answered anything
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // A client that lists once at startup still sees the server: the first list waits for it (up to 10 s).
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(((await answer(2)).result.tools as { name: string }[]).map((t) => t.name)).toContain('slow__echo');
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
  }, 60_000);
});

