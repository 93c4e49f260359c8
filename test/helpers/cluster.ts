import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNginx, type Nginx } from './nginx.js';
import { startPostgres, type PostgresServer } from './postgres.js';
import { startRedis, type RedisServer } from './redis.js';
import { ROOT } from './servers.js';
import { runSluice, SLUICE_NODE_ARGS } from './sluice-cli.js';
import { freePort, stopChild } from './spawn.js';
import { waitFor } from './wait.js';

export const CLUSTER_SERVER = path.join(ROOT, 'test/fixtures/cluster-server.mjs');

export interface Replica {
  name: string;
  url: string;
  config: string;
  /** kill -9: no shutdown, no goodbye. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data dir; resolves when it is ready. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface Cluster {
  /** nginx in front of every replica: what clients use. */
  url: string;
  replicas: Replica[];
  redis: RedisServer;
  postgres: PostgresServer;
  nginx: Nginx;
  /** Where the fixture's `work` tool writes the id of every execution, on any replica. */
  executions: string;
  root: string;
  sessionKey: string;
  publicKey: string;
  token(agent: string, admin?: boolean): Promise<string>;
  stop(): Promise<void>;
}

/**
 * N sluice replicas as separate processes on shared Redis and Postgres, behind nginx with the shipped
 * config. `body` is the rest of the config (agents, roles, mcpServers); `${REPLICA}` in it becomes each
 * replica's name and `${EXECUTIONS}` the executions file.
 */
export async function startCluster(body: string, count = 3): Promise<Cluster> {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-cluster-'));
  const executions = path.join(root, 'executions.log');
  writeFileSync(executions, '');
  const [redis, postgres] = await startEngines();
  const sessionKey = randomBytes(32).toString('hex');
  const keyFile = path.join(root, 'keys', 'audit-signing-key.pem');
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const replicas = ports.map((port, i) => {
    const name = `replica-${String.fromCharCode(97 + i)}`;
    const dataDir = path.join(root, name);
    mkdirSync(dataDir, { recursive: true });
    const config = path.join(root, `${name}.yaml`);
    writeFileSync(
      config,
      `listen: 127.0.0.1:${port}
logLevel: warn
dataDir: ${JSON.stringify(dataDir)}
state:
  url: ${redis.url}
audit:
  url: ${postgres.url}
  signingKeyFile: ${JSON.stringify(keyFile)}
  signIntervalSeconds: 1
${body.replaceAll('${REPLICA}', name).replaceAll('${EXECUTIONS}', executions)}`,
    );
    return replicaProcess(name, port, config, sessionKey);
  });
  let nginx: Nginx | undefined;
  const stopAll = async () => {
    await Promise.allSettled(replicas.map((r) => r.stop()));
    await nginx?.stop();
    await Promise.allSettled([redis.stop(), postgres.stop()]);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    // The first replica makes the shared signing key; the others then start side by side.
    await replicas[0].start();
    await Promise.all(replicas.slice(1).map((r) => r.start()));
    nginx = await startNginx(ports);
  } catch (err) {
    await stopAll(); // nothing a failed start began may outlive it
    throw err;
  }
  return {
    url: `${nginx.url}/mcp`,
    replicas,
    redis,
    postgres,
    nginx: nginx,
    executions,
    root,
    sessionKey,
    publicKey: keyFile.replace(/\.pem$/, '.pub.pem'),
    token: async (agent, admin = false) => {
      const made = await runSluice(['token', 'create', ...(admin ? ['--admin'] : [agent]), '--config', replicas[0].config]);
      if (made.code !== 0) throw new Error(`token create failed: ${made.stderr}`);
      return made.stdout.trim();
    },
    stop: stopAll,
  };
}

/** Redis and Postgres side by side; if one fails to start, the other is stopped before the error goes on. */
export async function startEngines(options: { durable?: boolean } = {}): Promise<[RedisServer, PostgresServer]> {
  const [redis, postgres] = await Promise.allSettled([startRedis(), startPostgres(options)]);
  if (redis.status === 'fulfilled' && postgres.status === 'fulfilled') return [redis.value, postgres.value];
  if (redis.status === 'fulfilled') await redis.value.stop();
  if (postgres.status === 'fulfilled') await postgres.value.stop();
  throw redis.status === 'rejected' ? redis.reason : (postgres as PromiseRejectedResult).reason;
}

function replicaProcess(name: string, port: number, config: string, sessionKey: string): Replica {
  let child: ChildProcess | undefined;
  let output = '';
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    url,
    config,
    kill: () => stopChild(child, 'SIGKILL'),
    start: async () => {
      output = '';
      child = spawn(process.execPath, [...SLUICE_NODE_ARGS, 'serve', '--config', config], {
        cwd: ROOT,
        env: { ...process.env, SLUICE_SESSION_KEY: sessionKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
      child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
      const started = child;
      const ready = waitFor(
        async () => {
          if (started.exitCode !== null || started.signalCode !== null) throw new Error(`${name} exited: ${output}`);
          return fetch(`${url}/readyz`).then(
            (r) => r.status === 200,
            () => false,
          );
        },
        30_000,
        `${name} ready`,
      );
      await ready.catch((err: Error) => {
        throw new Error(`${err.message}; it said: ${output}`);
      });
    },
    stop: () => stopChild(child),
  };
}
