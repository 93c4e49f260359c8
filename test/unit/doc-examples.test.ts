import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { ROOT } from '../helpers/servers.js';

/**
 * Every example in the README and in docs/ is checked against the code, so the documentation cannot drift: each
 * TypeScript block is typechecked against the library as published (`sluice/agent`, mapped to its source), and
 * each YAML block is loaded by the config loader — a fragment with `mcpServers: {}` added, and a block whose first
 * line says it continues the one above (`# … above`) after that one.
 */

const PROBE = path.join(ROOT, 'test/.probe/readme');

/** README.md and every page under docs/, with their text. */
function pages(): { file: string; text: string }[] {
  const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
}

/** The code blocks of one language in a page, list-item indentation removed. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\`$`, 'gm'))].map((m) => m[2].split('\n').map((l) => l.slice(m[1].length)).join('\n'));
}

function examples(): string[] {
  return pages().flatMap((p) => blocks(p.text, 'ts'));
}

/** What the YAML examples read from the environment (`${VAR}`): stand-ins, as an operator's shell would have. */
const EXAMPLE_ENV = { REMOTE_TOKEN: 'x', SLUICE_STATE_URL: 'redis://127.0.0.1:6379/0', SLUICE_AUDIT_URL: 'postgres://u:p@127.0.0.1:5432/db', API_SECRET: 'x', CRM_SECRET: 'x', SLUICE_OAUTH_SECRET: 'x' };

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

describe('the YAML examples of the README and docs/', () => {
  it('each loads as a config (fragments beside an empty mcpServers)', () => {
    let checked = 0;
    for (const { file, text } of pages()) {
      const yaml = blocks(text, 'yaml');
      yaml.forEach((block, i) => {
        const whole = /^# … .* above/.test(block) ? `${yaml[i - 1]}\n${block}` : block;
        const text = /^mcpServers:/m.test(whole) ? whole : `${whole}\nmcpServers: {}\n`;
        expect(() => parseConfig(text, `${file} (yaml block ${i + 1})`, EXAMPLE_ENV), `${file} yaml block ${i + 1}`).not.toThrow();
        checked++;
      });
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});

describe('the TypeScript examples of the README and docs/', () => {
  it('typecheck against sluice/agent', async () => {
    const blocks = examples();
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.every((b) => b.includes("from 'sluice/agent'"))).toBe(true);
    expect(await typecheck(path.join(PROBE, 'ok'), blocks)).toBe('');
  }, 180_000);

  it('would fail on an example that used the library wrongly', async () => {
    // The shape the old documentation showed: the gateway's internal server list.
    const wrong = "import { createAgent } from 'sluice/agent';\nawait createAgent({ servers: [{ name: 'x', transport: 'stdio' }], model: { model: 'ollama:x' } });\n";
    expect(await typecheck(path.join(PROBE, 'wrong'), [wrong])).toMatch(/example-1\.ts.*error TS\d+:.*AgentServer/);
  }, 180_000);
});
