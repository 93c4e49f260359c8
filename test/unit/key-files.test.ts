/**
 * Replicas (or the test harness's processes) that start at once on one data dir: each may find the key file
 * another is still writing. A key file is created whole or not at all, so every process reads the same key.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/servers.js';

/** Runs `script` in a process of its own, all of them released at the same instant (`at`), once loaded. */
function run(script: string, at: number): Promise<{ code: number; out: string }> {
  const synchronised = `${script.replace(/;.*$/, '')}; while (Date.now() < ${at}); ${script.replace(/^[^;]*;/, '')}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', synchronised], { cwd: ROOT }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: err ? stderr : stdout }));
  });
}

describe('key files made by several processes at once', () => {
  it.each([
    ['the audit signing key', (dir: string) => `import { HeadSigner } from './src/audit/signing.ts'; console.log(HeadSigner.fromFile(${JSON.stringify(path.join(dir, 'k.pem'))}).publicKeyPem)`],
    ['the session sealing key', (dir: string) => `import { loadSealKey } from './src/state/seal.ts'; console.log(loadSealKey(${JSON.stringify(dir)}, {}).toString('hex'))`],
  ])('%s: every process starts, and all read the same key', async (_what, script) => {
    for (let round = 0; round < 2; round++) {
      const dir = mkdtempSync(path.join(tmpdir(), 'sluice-key-race-'));
      const at = Date.now() + 3000;
      const results = await Promise.all(Array.from({ length: 4 }, () => run(script(dir), at)));
      expect(results.map((r) => r.code), results.map((r) => r.out).join('\n')).toEqual(results.map(() => 0));
      expect(new Set(results.map((r) => r.out)).size).toBe(1);
    }
    // Each round starts four processes that load TypeScript: slow on a loaded machine, whatever the code does.
  }, 180_000);
});
