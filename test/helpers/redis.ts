import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { findEngine } from '../setup/engines.js';
import { freePort, stopChild } from './spawn.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it for good (and removes its dir). */
  stop(): Promise<void>;
  /** Stops it, keeping the port, so `start()` can bring the same server back (for "Redis went away" tests). */
  pause(): Promise<void>;
  start(): Promise<void>;
  /** Runs one command as the server's admin (the default user): `ACL SETUSER` to make commands fail for real, say. */
  command(...args: string[]): Promise<unknown>;
  /**
   * A user of its own that may do anything, and the URL that connects as it: taking its rights away
   * (`ACL SETUSER name -@write`) makes only its connections' commands fail, for real, while Redis stays up.
   */
  newUser(): Promise<{ name: string; url: string }>;
}

/** A real redis-server on a random loopback port, in a temp dir, without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const binary = findEngine('redis-server');
  if (!binary) throw new Error('redis-server is not installed (the global setup in test/setup/engines.ts installs it)');
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-redis-'));
  let port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        child = await launch(binary, port, dir);
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
        port = await freePort(); // someone took the port between freePort and bind
      }
    }
  };
  const halt = async (): Promise<void> => {
    const c = child;
    child = undefined;
    await stopChild(c, 'SIGKILL'); // an outage, not a shutdown: nothing is saved anyway
  };
  await start();
  const command = async (...args: string[]): Promise<unknown> => {
    const admin = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await admin.connect();
      return await admin.call(args[0], ...args.slice(1));
    } finally {
      admin.disconnect();
    }
  };
  return {
    get url() {
      return `redis://127.0.0.1:${port}/0`;
    },
    get port() {
      return port;
    },
    start,
    pause: halt,
    command,
    newUser: async () => {
      const [name, password] = [`u${randomBytes(4).toString('hex')}`, randomBytes(12).toString('hex')];
      await command('ACL', 'SETUSER', name, 'on', `>${password}`, '~*', '&*', '+@all');
      return { name, url: `redis://${name}:${password}@127.0.0.1:${port}/0` };
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function launch(binary: string, port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`redis-server did not start: ${seen.slice(-300)}`))), 10_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (/Ready to accept connections/.test(seen)) {
        clearTimeout(timer);
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${seen.slice(-300)}`));
    });
  });
}
