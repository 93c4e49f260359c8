import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './servers.js';

export const INSPECTOR = path.join(ROOT, 'node_modules/.bin/mcp-inspector-cli');

export interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (the inspector pretty-prints the result it got). */
  json(): any;
}

/**
 * Runs `mcp-inspector-cli --cli <args>` as a separate process, asynchronously (the gateway under test may live
 * in this very process and must keep serving). The inspector looks for `../package.json` relative to its cwd,
 * so it runs from <repo>/test, whose parent holds the repository's package.json.
 */
export function runInspector(args: string[], timeoutMs = 30_000): Promise<InspectorRun> {
  return new Promise((resolve) => {
    execFile(
      INSPECTOR,
      ['--cli', ...args],
      { cwd: path.join(ROOT, 'test'), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? Number((err as { code?: unknown }).code) : 1) : 0;
        resolve({
          code,
          stdout,
          stderr,
          json: () => {
            try {
              return JSON.parse(stdout);
            } catch {
              throw new Error(`inspector printed no JSON (exit ${code}).\nstdout: ${stdout}\nstderr: ${stderr}`);
            }
          },
        });
      },
    );
  });
}
