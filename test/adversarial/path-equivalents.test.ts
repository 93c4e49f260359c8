import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { FILESYSTEM, ROOT } from '../helpers/servers.js';

/**
 * Names that the file system (or the server) opens as a different entry than the one sluice looked at:
 * Unicode-equivalent spellings of a symlink's name, and symlinks whose target does not exist yet. Each runs
 * through a real gateway in front of server-filesystem serving a folder wider than the allowed tree, and in
 * front of a server with no checks at all (test/fixtures/plain-fs-server.mjs) — so only sluice's rule stands
 * between the agent and `outside/`.
 */

const PLAIN_FS = path.join(ROOT, 'test/fixtures/plain-fs-server.mjs');
const SECRET = 'the key outside the allowed tree\n';

const NFC_E = '\u00e9'; // é as one code point
const NFD_E = 'e\u0301'; // e + combining acute

interface World {
  root: string;
  allowed: string;
  outside: string;
}

function makeWorld(): World {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'sluice-equiv-')));
  const allowed = path.join(root, 'allowed');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(allowed, 'sub'), { recursive: true });
  mkdirSync(path.join(allowed, `a\u0301\u0323`)); // a real folder inside …
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'key.txt'), SECRET);
  writeFileSync(path.join(allowed, 'sub', 'inside.txt'), 'inside\n');
  writeFileSync(path.join(allowed, `r${NFC_E}sum${NFC_E}.txt`), 'an NFC name\n');
  writeFileSync(path.join(allowed, 'nai\u0308ve.txt'), 'an NFD name\n');
  writeFileSync(path.join(allowed, `a\u0301\u0323`, 'key.txt'), 'the harmless one\n');
  symlinkSync(outside, path.join(allowed, `caf${NFD_E}`)); // NFD name → outside
  symlinkSync(outside, path.join(allowed, `th${NFC_E}`)); // NFC name → outside
  symlinkSync(outside, path.join(allowed, `a\u0323\u0301`)); // … and a canonically equal name → outside
  symlinkSync(path.join(outside, 'new.txt'), path.join(allowed, 'dangling.txt'));
  symlinkSync('link2', path.join(allowed, 'link1'));
  symlinkSync('../outside/chain.txt', path.join(allowed, 'link2'));
  symlinkSync('loop2', path.join(allowed, 'loop1'));
  symlinkSync('loop1', path.join(allowed, 'loop2'));
  symlinkSync('../outside/not-yet', path.join(allowed, 'later-dir')); // a folder link, dangling
  symlinkSync('missing/../../outside/climbed.txt', path.join(allowed, 'climb.txt'));
  symlinkSync('sub', path.join(allowed, 'inner-link'));
  symlinkSync('sub/later.txt', path.join(allowed, 'later-link.txt'));
  return { root, allowed, outside };
}

function yamlFor(world: World, server: string): string {
  return `listen: 127.0.0.1:0
logLevel: silent
auth:
  required: false
  anonymousAgent: tester
agents:
  tester: { role: sandboxed }
roles:
  sandboxed:
    default: allow
    onFlowViolation: allow
    paths:
      allow: [${JSON.stringify(world.allowed + '/**')}]
mcpServers:
${server}
`;
}

const SERVERS = [
  {
    kind: 'server-filesystem (serving a folder wider than the allowed tree)',
    read: 'files__read_text_file',
    write: 'files__write_file',
    server: (w: World) => `  files:\n    command: node\n    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(w.root)}]`,
  },
  {
    kind: 'a plain fs.readFile / fs.writeFile server with no checks',
    read: 'plain__read_file',
    write: 'plain__write_file',
    server: () => `  plain:\n    command: node\n    args: [${JSON.stringify(PLAIN_FS)}]`,
  },
];

describe.each(SERVERS)('path equivalents through $kind', (spec) => {
  let world: World;
  let gw: TestGateway;
  let client: Client;
  const decisions: DecisionEvent[] = [];

  beforeAll(async () => {
    world = makeWorld();
    gw = await startTestGateway(yamlFor(world, spec.server(world)));
    gw.gateway.onDecision((e) => decisions.push(e));
    client = new Client({ name: 'attacker', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
  });
  afterAll(async () => {
    await client?.close();
    await gw?.stop();
    if (world) rmSync(world.root, { recursive: true, force: true });
  });

  /** Calls a tool and returns its result with the one decision recorded for it. */
  async function call(name: string, args: Record<string, unknown>) {
    const before = decisions.length;
    const result = await client.callTool({ name, arguments: args });
    const recorded = decisions.slice(before).filter((e) => e.method === 'tools/call');
    expect(recorded, `one decision for ${name}`).toHaveLength(1);
    return { result, text: textOf(result), decision: recorded[0] };
  }
  const read = (p: string) => call(spec.read, { path: p });
  const write = (p: string, content = 'planted\n') => call(spec.write, { path: p, content });

  function expectRefusedAtPaths(outcome: Awaited<ReturnType<typeof call>>, reason: RegExp = /outside the allowed paths/) {
    expect(outcome.result.isError).toBe(true);
    expect(outcome.text).toMatch(/sluice refused this call at the paths step/);
    expect(outcome.text).toMatch(reason);
    expect(outcome.text).not.toContain(SECRET.trim());
    expect(outcome.decision).toMatchObject({ outcome: 'deny', step: 'paths' });
  }
  function expectAllowed(outcome: Awaited<ReturnType<typeof call>>) {
    expect(outcome.result.isError, outcome.text).toBeFalsy();
    expect(outcome.decision.outcome).toBe('allow');
  }

  // ---- Unicode-equivalent names ----------------------------------------------------------------------------

  it('refuses a read by an NFC name that leads through an NFD-named symlink to outside', async () => {
    expectRefusedAtPaths(await read(path.join(world.allowed, `caf${NFC_E}`, 'key.txt')));
  });

  it('refuses a write by an NFC name through an NFD-named symlink, and nothing appears outside', async () => {
    expectRefusedAtPaths(await write(path.join(world.allowed, `caf${NFC_E}`, 'planted.txt')));
    expect(existsSync(path.join(world.outside, 'planted.txt'))).toBe(false);
  });

  it('refuses a read by an NFD name that leads through an NFC-named symlink to outside', async () => {
    expectRefusedAtPaths(await read(path.join(world.allowed, `th${NFD_E}`, 'key.txt')));
  });

  it('refuses a write by an NFD name through an NFC-named symlink, and nothing appears outside', async () => {
    expectRefusedAtPaths(await write(path.join(world.allowed, `th${NFD_E}`, 'planted-too.txt')));
    expect(existsSync(path.join(world.outside, 'planted-too.txt'))).toBe(false);
  });

  it('refuses a name that matches two entries differing only in the order of combining marks', async () => {
    // `ạ́` (NFC) is canonically equal to both `a\u0323\u0301` (→ outside) and `a\u0301\u0323` (inside).
    const outcome = await read(path.join(world.allowed, '\u1ea1\u0301', 'key.txt'));
    expectRefusedAtPaths(outcome, /ambiguous/i);
    expect(outcome.decision.reason).toMatch(/ambiguous/i);
  });

  // ---- symlinks whose target does not exist (yet) ----------------------------------------------------------

  it('refuses a write through a dangling symlink to outside, and nothing appears outside', async () => {
    expectRefusedAtPaths(await write(path.join(world.allowed, 'dangling.txt')));
    expect(existsSync(path.join(world.outside, 'new.txt'))).toBe(false);
  });

  it('refuses a write through a dangling chain link1 → link2 → outside/chain.txt', async () => {
    const outcome = await write(path.join(world.allowed, 'link1'));
    expectRefusedAtPaths(outcome);
    expect(outcome.decision.reason).toContain(path.join(world.outside, 'chain.txt'));
    expect(existsSync(path.join(world.outside, 'chain.txt'))).toBe(false);
  });

  it('refuses a dangling folder link in the middle of a path, and link text that climbs out past a missing folder', async () => {
    expectRefusedAtPaths(await write(path.join(world.allowed, 'later-dir', 'x.txt')));
    expectRefusedAtPaths(await write(path.join(world.allowed, 'climb.txt')));
    expect(existsSync(path.join(world.outside, 'climbed.txt'))).toBe(false);
  });

  it('refuses a symlink loop with a reason that says so', async () => {
    expectRefusedAtPaths(await write(path.join(world.allowed, 'loop1')), /symbolic links|loop/i);
    expectRefusedAtPaths(await write(path.join(world.allowed, 'loop2', 'below.txt')), /symbolic links|loop/i);
  });

  // ---- benign controls: these must keep working ------------------------------------------------------------

  it('lets a plain new file inside the tree be written', async () => {
    const target = path.join(world.allowed, 'fresh.txt');
    expectAllowed(await write(target, 'fresh\n'));
    expect(readFileSync(target, 'utf8')).toBe('fresh\n');
  });

  it('reads an NFC-named file inside the tree by its NFD name', async () => {
    const outcome = await read(path.join(world.allowed, `r${NFD_E}sum${NFD_E}.txt`));
    expectAllowed(outcome);
    expect(outcome.text).toBe('an NFC name\n');
  });

  it('reads an NFD-named file inside the tree by its NFC name', async () => {
    const outcome = await read(path.join(world.allowed, 'na\u00efve.txt'));
    expectAllowed(outcome);
    expect(outcome.text).toBe('an NFD name\n');
  });

  it('follows a symlink that stays inside the tree', async () => {
    const outcome = await read(path.join(world.allowed, 'inner-link', 'inside.txt'));
    expectAllowed(outcome);
    expect(outcome.text).toBe('inside\n');
  });

  it('lets a write through a dangling symlink whose target is inside the tree create that target', async () => {
    expectAllowed(await write(path.join(world.allowed, 'later-link.txt'), 'later\n'));
    expect(readFileSync(path.join(world.allowed, 'sub', 'later.txt'), 'utf8')).toBe('later\n');
  });
});
