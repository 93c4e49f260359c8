import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, FILESYSTEM, makeSandbox, MEMORY, ROOT } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

const POISONED = path.join(ROOT, 'test/fixtures/poisoned-server.mjs');

let sandbox: string;
beforeAll(() => {
  sandbox = makeSandbox();
});

const server = (name: string, args: string[]) => `  ${name}:\n    command: node\n    args: [${args.map((a) => JSON.stringify(a)).join(', ')}]\n`;

describe('sluice definitions scan', () => {
  it('flags a poisoned server\'s tools and prompt — hidden text, a copycat, secrecy — and none of the real servers\'', async () => {
    // The filesystem server comes first in the config: its read_text_file is the original, the poisoned one the copy.
    const config = writeConfig(sandbox, `mcpServers:\n${server('files', [FILESYSTEM, sandbox])}${server('poisoned', [POISONED])}${server('everything', [EVERYTHING, 'stdio'])}${server('memory', [MEMORY])}`, 'scan.yaml');
    const run = await runSluice(['definitions', 'scan', '-c', config, '--json'], 60_000);
    expect(run.code).toBe(1);
    const entries = JSON.parse(run.stdout) as { server: string; kind: string; name: string; flagged: boolean; findings: { rule: string; where: string }[] }[];
    const flagged = entries.filter((e) => e.flagged).map((e) => `${e.server}/${e.kind}/${e.name}`);
    expect(flagged.sort()).toEqual(['poisoned/prompt/summarise', 'poisoned/tool/add', 'poisoned/tool/read_text_file']);
    const add = entries.find((e) => e.name === 'add')!;
    expect(add.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['hidden-unicode', 'sensitive-file']));
    expect(entries.find((e) => e.server === 'poisoned' && e.name === 'read_text_file')!.findings[0]).toMatchObject({ rule: 'shadowing', where: 'name' });
    // Every definition of the real servers was read, and none is flagged.
    for (const real of ['files', 'everything', 'memory']) expect(entries.filter((e) => e.server === real).length).toBeGreaterThan(3);
  }, 90_000);

  it('exits 0 on servers with nothing to flag, and says what it read', async () => {
    const config = writeConfig(sandbox, `mcpServers:\n${server('everything', [EVERYTHING, 'stdio'])}`, 'clean.yaml');
    const run = await runSluice(['definitions', 'scan', '-c', config], 60_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^0 of \d+ definitions flagged \(everything 0\/\d+\)$/m);
  }, 60_000);

  it('exits 2 when no server can be reached, naming why', async () => {
    const config = writeConfig(sandbox, `mcpServers:\n  gone:\n    command: definitely-not-a-command-7f3a\n`, 'gone.yaml');
    const run = await runSluice(['definitions', 'scan', '-c', config], 60_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('server gone: cannot start "definitely-not-a-command-7f3a": command not found');
  }, 60_000);
});
