import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/servers.js';

/**
 * Every TypeScript example in the README is typechecked against the library as published (`sluice/agent`,
 * mapped to its source), so the documentation cannot drift from the API.
 */

const PROBE = path.join(ROOT, 'test/.probe/readme');

function examples(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** Typechecks the given module texts together; resolves with tsc's diagnostics ('' when clean). */
function typecheck(dir: string, files: string[]): Promise<string> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  files.forEach((text, i) => writeFileSync(path.join(dir, `example-${i + 1}.ts`), text));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: path.join(ROOT, 'tsconfig.json'),
      compilerOptions: { noEmit: true, rootDir: ROOT, noUnusedLocals: false, paths: { 'sluice/agent': [path.join(ROOT, 'src/agent/agent.ts')] } },
      include: ['./*.ts'],
    }),
  );
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  return new Promise((resolve) => execFile(process.execPath, [tsc, '-p', dir], { cwd: ROOT }, (_err, stdout) => resolve(stdout.trim())));
}

describe('the README\'s TypeScript examples', () => {
  it('typecheck against sluice/agent', async () => {
    const blocks = examples();
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.every((b) => b.includes("from 'sluice/agent'"))).toBe(true);
    expect(await typecheck(path.join(PROBE, 'ok'), blocks)).toBe('');
  }, 60_000);

  it('would fail on an example that used the library wrongly', async () => {
    // The shape the old documentation showed: the gateway's internal server list.
    const wrong = "import { createAgent } from 'sluice/agent';\nawait createAgent({ servers: [{ name: 'x', transport: 'stdio' }], model: { model: 'ollama:x' } });\n";
    expect(await typecheck(path.join(PROBE, 'wrong'), [wrong])).toMatch(/example-1\.ts.*error TS\d+:.*AgentServer/);
  }, 60_000);
});
