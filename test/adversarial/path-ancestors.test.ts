import type { Client } from '@modelcontextprotocol/client';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { connectWithToken } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { FILESYSTEM } from '../helpers/servers.js';
import { decisionsFor } from '../helpers/decisions.js';

/**
 * A deny rule must not be walked around through the folders above what it denies. With
 * `deny: [sandbox/hr/private/**]`, moving `sandbox/hr` to `sandbox/hr-archive` once took the denied files out
 * of the rule's reach (then read at their new path), and a search of `sandbox` listed their names. Run against
 * the real server-filesystem, which enforces nothing but its root.
 */
let gw: TestGateway;
let client: Client;
let sandbox: string;
const decisions: DecisionEvent[] = [];

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-ancestors-'));
  sandbox = path.join(root, 'sandbox');
  for (const dir of ['hr/private/2024', 'docs', 'keys', 'links']) mkdirSync(path.join(sandbox, dir), { recursive: true });
  writeFileSync(path.join(sandbox, 'notes.txt'), 'ordinary notes\n');
  writeFileSync(path.join(sandbox, 'hr', 'handbook.txt'), 'be kind\n');
  writeFileSync(path.join(sandbox, 'hr', 'private-notes.txt'), 'not denied: a look-alike name\n');
  writeFileSync(path.join(sandbox, 'hr', 'private', 'salaries.txt'), 'CEO: a lot\n');
  writeFileSync(path.join(sandbox, 'hr', 'private', '2024', 'bonus-plan.txt'), 'secret plan\n');
  writeFileSync(path.join(sandbox, 'docs', 'readme.md'), '# docs\n');
  writeFileSync(path.join(sandbox, 'keys', 'deploy.key'), 'KEY\n');
  writeFileSync(path.join(sandbox, 'keys', 'deploy.pub'), 'PUB\n');
  symlinkSync(path.join(sandbox, 'hr', 'private'), path.join(sandbox, 'links', 'payroll'));
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  dev: { role: developer }
roles:
  developer:
    default: allow
    paths:
      allow: [${JSON.stringify(sandbox + '/**')}]
      deny: [${JSON.stringify(sandbox + '/hr/private/**')}, ${JSON.stringify(sandbox + '/**/*.key')}]
mcpServers:
  files:
    command: node
    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]
`);
  gw.gateway.onDecision((e) => decisions.push(e));
  const token = new FileTokenStore(gw.gateway.config.security.tokensFile).create('dev').token;
  client = await connectWithToken(gw.url, token, 'ancestors');
});
afterAll(async () => {
  await client?.close();
  await gw?.stop();
});

const call = (tool: string, args: Record<string, unknown>) => client.callTool({ name: `files__${tool}`, arguments: args });

async function ok(tool: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(tool, args);
  expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
  return textOf(result);
}

async function refused(tool: string, args: Record<string, unknown>, reason: RegExp, step = 'paths'): Promise<void> {
  const since = decisions.length;
  const result = await call(tool, args);
  expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
  expect(textOf(result)).toMatch(new RegExp(`sluice refused this call at the ${step} step: ${reason.source}`));
  // By its tool alone: the record holds the paths as checked (canonical: no trailing slash), not as sent.
  expect(decisionsFor(decisions, since, { target: `files__${tool}` })).toEqual([expect.objectContaining({ outcome: 'deny', step })]);
}

describe('writes to a folder above denied paths', () => {
  it('refuses moving or renaming a folder that holds denied paths, so they are not read at a new path', async () => {
    const why = /.*sandbox\/hr is a folder that holds or could hold denied paths/;
    await refused('move_file', { source: `${sandbox}/hr`, destination: `${sandbox}/hr-archive` }, why);
    await refused('move_file', { source: `${sandbox}/hr/`, destination: `${sandbox}/docs/hr` }, why);
    await refused('move_file', { source: sandbox, destination: `${sandbox}/all` }, /.*sandbox is a folder that holds or could hold denied paths/);
    expect(existsSync(path.join(sandbox, 'hr', 'private', 'salaries.txt'))).toBe(true);
    expect(textOf(await call('read_text_file', { path: `${sandbox}/hr-archive/private/salaries.txt` }))).not.toContain('CEO');
  });

  it('refuses a folder whose denied contents only the disk shows (a rule with no fixed prefix below it)', async () => {
    await refused('move_file', { source: `${sandbox}/keys`, destination: `${sandbox}/old-keys` }, /.*sandbox\/keys is a folder that holds or could hold denied paths/);
    expect(existsSync(path.join(sandbox, 'keys', 'deploy.key'))).toBe(true);
  });

  it('still lets a folder with nothing denied in it, and plain files, be moved (the control)', async () => {
    await ok('move_file', { source: `${sandbox}/docs`, destination: `${sandbox}/documents` });
    await ok('move_file', { source: `${sandbox}/documents`, destination: `${sandbox}/docs` });
    await ok('move_file', { source: `${sandbox}/notes.txt`, destination: `${sandbox}/notes-2.txt` });
    await ok('move_file', { source: `${sandbox}/notes-2.txt`, destination: `${sandbox}/notes.txt` });
  });
});

describe('listings and searches above denied paths', () => {
  it('lists a folder without the names of denied entries', async () => {
    const listing = await ok('list_directory', { path: `${sandbox}/hr` });
    expect(listing).toContain('handbook.txt');
    expect(listing).toContain('private-notes.txt'); // a look-alike name that is not denied stays
    expect(listing).not.toMatch(/\[DIR\] private$/m);
    const sized = await ok('list_directory_with_sizes', { path: `${sandbox}/hr`, sortBy: 'size' });
    expect(sized).toContain('handbook.txt');
    expect(sized).not.toMatch(/\[DIR\] private\s/);
    const keys = await ok('list_directory', { path: `${sandbox}/keys` });
    expect(keys).toContain('deploy.pub');
    expect(keys).not.toContain('deploy.key');
  });

  it('shows a tree without the denied branches', async () => {
    const tree = JSON.parse(await ok('directory_tree', { path: sandbox })) as { name: string; children?: unknown[] }[];
    const names = JSON.stringify(tree);
    expect(names).toContain('"handbook.txt"');
    expect(names).toContain('"deploy.pub"');
    for (const hidden of ['"private"', 'salaries.txt', 'bonus-plan.txt', '2024', 'deploy.key']) expect(names).not.toContain(hidden);
    // A link into the denied folder is hidden too: following it would list what it holds.
    expect(names).not.toContain('payroll');
  });

  it('refuses a search of a folder that holds denied names: what it matches would tell them', async () => {
    await refused('search_files', { path: sandbox, pattern: '**/sal*' }, /.*a search or listing of .*sandbox with further arguments \(pattern\) could reveal denied names by what it matches/);
    await refused('search_files', { path: `${sandbox}/keys`, pattern: '*.key' }, /.*could reveal denied names/);
    // A folder with nothing denied below it is searched as usual.
    expect(await ok('search_files', { path: `${sandbox}/docs`, pattern: '*.md' })).toContain('readme.md');
  });
});
