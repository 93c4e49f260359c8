import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { descendants } from './proc-tree.js';

/** A child process the bench started, with the tail of what it printed (for error messages). */
export interface Child {
  name: string;
  proc: ChildProcess;
  /** The last few KB of stdout and stderr, for "why did it not start" messages. */
  output(): string;
  stop(): Promise<void>;
}

const TAIL_BYTES = 8 * 1024;
const running = new Set<Child>();

/**
 * Starts a process in its own process group, so stopping it also stops what it spawned (every gateway here
 * spawns server-everything; killing only the gateway would orphan those). Output is drained into a small
 * tail buffer: an undrained pipe fills up and blocks a chatty child, which would distort its numbers.
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; keepStdout?: boolean } = {},
): Child {
  const proc = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let tail = '';
  const collect = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
  };
  if (!options.keepStdout) proc.stdout?.on('data', collect);
  proc.stderr?.on('data', collect);
  proc.on('error', (err) => collect(Buffer.from(`spawn error: ${err.message}\n`)));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const child: Child = {
    name,
    proc,
    output: () => tail,
    async stop() {
      running.delete(child);
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      // Noted before signalling: once the leader is gone its orphans are re-parented and can no longer be found.
      const tree = descendants(proc.pid ?? 0);
      signalGroup(proc, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(proc, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      // The leader may exit before its children, and some (supergateway's servers) live in groups of their own.
      signalGroup(proc, 'SIGKILL');
      for (const pid of tree) killPid(pid);
    },
  };
  running.add(child);
  return child;
}

function signalGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Stops every process still running, e.g. on error or Ctrl-C. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop()));
}

/** Processes spawned for us by a library (the SDK's stdio transport); killed only if the bench dies first. */
const adopted = new Set<number>();

/** Remembers a pid a library spawned on our behalf; call the returned function once it has been closed. */
export function adoptPid(pid: number | null | undefined): () => void {
  if (typeof pid !== 'number') return () => {};
  adopted.add(pid);
  return () => adopted.delete(pid);
}

// Last resort if the bench dies without running its cleanup: no process it started may outlive it.
process.once('exit', () => {
  for (const c of running) signalGroup(c.proc, 'SIGKILL');
  for (const pid of adopted) killPid(pid);
});

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** A port that was free a moment ago on 127.0.0.1 (the peers need a port number up front). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
