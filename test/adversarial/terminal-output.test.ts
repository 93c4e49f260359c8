import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { connectWithToken } from '../helpers/clients.js';
import { startGatewayFromFile, type TestGateway } from '../helpers/gateway.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { EVERYTHING, ROOT } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Text from outside — an upstream's definitions and results, a client's arguments, a token file, a model's
 * answer — reaches the operator's terminal through the CLI. None of it may reach it raw: an ANSI sequence that
 * erases a line, a carriage return that writes over one, a C1 control, a bidi override or a lone surrogate is
 * shown escaped (`\u{1b}`), and JSON output keeps the same values with the same escapes (`\u001b`).
 */
const ESCAPE_SERVER = path.join(ROOT, 'test/fixtures/escape-server.mjs');
/** What the escape server puts in every text it sends (see the fixture). */
const POISON = '\x1b[2K\r\x1b[1A\x1b]0;owned\x07\u009b2J\u202eevil\ud800';
/** How a line of CLI text shows it. */
const SHOWN = '\\u{1b}[2K\\u{d}\\u{1b}[1A\\u{1b}]0;owned\\u{7}\\u{9b}2J\\u{202e}evil\\u{d800}';
/** How JSON output shows it. */
const SHOWN_JSON = '\\u001b[2K\\r\\u001b[1A\\u001b]0;owned\\u0007\\u009b2J\\u202eevil\\ud800';

/** Anything a terminal would act on or hide: controls but the line feed, format characters, separators, and U+FFFD (a lone surrogate written as UTF-8). */
const RAW = /[^\P{Cc}\n]|[\p{Cf}\p{Zl}\p{Zp}\uFFFD]/u;

function expectPrintable(what: string, out: { stdout: string; stderr: string }): void {
  for (const [stream, text] of Object.entries({ stdout: out.stdout, stderr: out.stderr })) {
    const hit = RAW.exec(text);
    expect(hit && `${what} ${stream}: U+${hit[0].codePointAt(0)!.toString(16)} in …${text.slice(Math.max(0, hit.index - 40), hit.index + 10)}…`, `${what} ${stream}`).toBeNull();
  }
}

let dir: string;
let config: string;
let gw: TestGateway;
let admin: string;
let alice: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sluice-terminal-'));
  config = writeConfig(
    dir,
    `listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(dir, 'data'))}
agents:
  alice: { role: dev }
roles:
  dev:
    default: allow
    tools: { "everything__echo": approve }
approvals: { timeoutSeconds: 60 }
mcpServers:
  escape:
    command: node
    args: [${JSON.stringify(ESCAPE_SERVER)}]
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`,
  );
  gw = await startGatewayFromFile(config);
  const tokens = new FileTokenStore(gw.gateway.config.security.tokensFile);
  admin = tokens.create('admin:operator').token;
  alice = tokens.create('alice').token;
  // A token file someone else wrote: an agent name is text from outside too.
  tokens.create(`mallory${POISON}`);
  await gw.gateway.security.recorder.record({
    time: new Date().toISOString(),
    agent: `agent${POISON}`,
    session: '-',
    transport: 'http',
    method: 'tools/call',
    target: `target${POISON}`,
    outcome: 'deny',
    step: 'resolve',
    rule: `rule${POISON}`,
    reason: `refused: ${POISON}`,
    durationMs: 0,
  });
});
afterAll(async () => gw?.stop());

const operator = (...args: string[]) => runSluice([...args, '-c', config, '--url', gw.url.replace('/mcp', ''), '--token', admin]);

describe('the CLI shows outside text escaped', () => {
  it('definitions list and diff', async () => {
    const list = await operator('definitions', 'list');
    expect(list.code).toBe(0);
    expectPrintable('definitions list', list);
    expect(list.stdout).toContain(`note://x${SHOWN}`);
    expect(list.stdout).toContain(`note://{id}${SHOWN}`);
    const json = await operator('definitions', 'list', '--json');
    expectPrintable('definitions list --json', json);
    expect(json.stdout).toContain(`note://x${SHOWN_JSON}`);
    // The same values: only the way they are written differs.
    expect((JSON.parse(json.stdout) as { shownAs: string }[]).map((d) => d.shownAs)).toContain(`note://x${POISON}`);
    const diff = await operator('definitions', 'diff', 'escape__wipe');
    expect(diff.code).toBe(0);
    expectPrintable('definitions diff', diff);
    expect(diff.stdout).toContain('Wipes nothing.\\u001b[2K');
  });

  it('definitions scan, as text and as JSON', async () => {
    for (const flags of [['--all'], ['--json']]) {
      const scan = await runSluice(['definitions', 'scan', '-c', config, ...flags], 60_000);
      expectPrintable(`definitions scan ${flags}`, scan);
      expect(scan.stdout).toContain(flags[0] === '--json' ? SHOWN_JSON : SHOWN);
    }
  }, 90_000);

  it('audit tail and export', async () => {
    await gw.gateway.audit!.settle();
    const tail = await runSluice(['audit', 'tail', '-n', '1000', '-c', config]);
    expect(tail.code).toBe(0);
    expectPrintable('audit tail', tail);
    expect(tail.stdout).toContain(`refused: ${SHOWN}`);
    expect(tail.stdout).toContain(`agent${SHOWN}`);
    const exported = await runSluice(['audit', 'export', '-c', config]);
    expectPrintable('audit export', exported);
    expect(exported.stdout).toContain(`refused: ${SHOWN_JSON}`);
    expect(exported.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { reason?: string }).reason)).toContain(`refused: ${POISON}`);
  });

  it('token list and session list', async () => {
    const tokens = await runSluice(['token', 'list', '-c', config]);
    expectPrintable('token list', tokens);
    expect(tokens.stdout).toContain(`mallory${SHOWN}`);
    const sessions = await operator('session', 'list');
    expect(sessions.code).toBe(0);
    expectPrintable('session list', sessions);
  });

  it('approvals list, with a client\'s arguments waiting for a decision', async () => {
    const client: Client = await connectWithToken(gw.url, alice);
    const call = client.callTool({ name: 'everything__echo', arguments: { message: `hi${POISON}` } }).catch(() => undefined);
    let id = '';
    await waitFor(async () => {
      const list = await operator('approvals', 'list');
      expectPrintable('approvals list', list);
      id = /^(\S+)\s/m.exec(list.stdout.replace(/^no pending approvals\n/, ''))?.[1] ?? '';
      return list.stdout.includes('everything__echo');
    }, 20_000, 'the pending approval');
    const denied = await operator('approvals', 'deny', id, '--reason', 'no');
    expectPrintable('approvals deny', denied);
    await call;
    await client.close();
  }, 60_000);
});

describe('sluice agent shows outside text escaped', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(async () => model?.close());

  it('a tool\'s result, the tool call and the model\'s answer, keeping the answer\'s lines', async () => {
    const agentConfig = writeConfig(dir, `mcpServers:\n  escape:\n    command: node\n    args: [${JSON.stringify(ESCAPE_SERVER)}]\n`, 'agent.yaml');
    const args = ['agent', '-c', agentConfig, '--model', 'compatible:scripted', '--base-url', model.url, '--yes', '-p', 'wipe it'];
    model.push({ toolCalls: [{ name: 'wipe', arguments: { what: `all${POISON}` } }] }, { text: `line one${POISON}\nline two` });
    const text = await runSluice(args, 60_000);
    expect(text.code).toBe(0);
    expectPrintable('agent -p', text);
    expect(text.stdout).toContain(`line one${SHOWN}\nline two`);
    expect(text.stderr).toContain(`→ wipe {"what":"all\\u001b[2K\\r\\u001b[1A\\u001b]0;owned\\u0007\\u{9b}2J\\u{202e}evil\\ud800"}`);
    expect(text.stderr).toContain(`← wipe: wiped${SHOWN}`);
    model.push({ toolCalls: [{ name: 'wipe', arguments: { what: 'all' } }] }, { text: `answer${POISON}` });
    const json = await runSluice([...args, '--json'], 60_000);
    expect(json.code).toBe(0);
    expectPrintable('agent -p --json', json);
    expect((JSON.parse(json.stdout) as { answer: string }).answer).toBe(`answer${POISON}`);
  }, 120_000);
});
