import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, ROOT } from './servers.js';

/** `node` arguments that run the sluice CLI from source (cwd must be ROOT so that `tsx` resolves). */
export const SLUICE_NODE_ARGS = ['--import', 'tsx', CLI];

/** Writes a config file into `dir` and returns its path. */
export function writeConfig(dir: string, text: string, name = 'sluice.yaml'): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Runs the sluice CLI to completion (asynchronously) and reports its exit code and output. */
export function runSluice(args: string[], timeoutMs = 30_000, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...SLUICE_NODE_ARGS, ...args], { cwd: ROOT, timeout: timeoutMs, env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `sluice serve --stdio --no-http -c <config>` with its three pipes, for driving it by hand. */
export function spawnSluiceStdio(config: string): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...SLUICE_NODE_ARGS, 'serve', '--stdio', '--no-http', '--config', config], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
}
