import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { ROOT } from './servers.js';

export const FORCE_LOOPBACK = path.join(ROOT, 'test/fixtures/force-loopback.cjs');

/**
 * Stops a child the test started and resolves once it is gone: `signal` first (the engine's own graceful stop),
 * SIGKILL after `graceMs`. A child that already exited resolves at once.
 */
export function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
    if (signal !== 'SIGKILL') setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
  });
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts a process and waits until it prints `ready` (on stdout or stderr). */
export async function spawnUntil(command: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}, timeoutMs = 15_000): Promise<ChildProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not become ready: ${seen.slice(-500)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${seen.slice(-500)}`));
    });
  });
  return child;
}
