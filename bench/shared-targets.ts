import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNginx, type Nginx } from '../test/helpers/nginx.js';
import { startEngines } from '../test/helpers/cluster.js';
import { treeCpu, type CpuSplit } from './cpu.js';
import { waitForHttp, type HttpTarget } from './http-target.js';
import { CLI, ROOT } from './paths.js';
import { freePort, startProcess, type Child } from './processes.js';
import type { Settings } from './settings.js';
import { sluiceConfig } from './sluice-config.js';
import { redisState } from './sluice-internals.js';

/**
 * sluice on shared state, as a cluster runs it: the `sluice` bench config (security on, audit on) plus
 * `state.url` (Redis) and `audit.url` (Postgres as it ships: fsync and synchronous_commit on). One replica
 * (`sluice-shared`, to compare with the embedded defaults), or three behind nginx with the shipped
 * deploy/nginx.conf (`sluice-cluster`; on two cores it cannot show scaling, only what the hops cost).
 * Gateway CPU is the sluice processes' own; Redis, Postgres and nginx are not counted.
 */
export async function startShared(settings: Settings, replicas: 1 | 3): Promise<HttpTarget> {
  const name = replicas === 1 ? 'sluice-shared' : 'sluice-cluster';
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const [redis, postgres] = await startEngines({ durable: process.env.BENCH_PG_FSYNC !== '0' });
  const sessionKey = randomBytes(32).toString('hex');
  const children: Child[] = [];
  let nginx: Nginx | undefined;
  const stop = async () => {
    await Promise.allSettled(children.map((c) => c.stop()));
    await nginx?.stop();
    await Promise.allSettled([redis.stop(), postgres.stop()]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const token = await issueToken(redis.url);
    const ports = await Promise.all(Array.from({ length: replicas }, () => freePort()));
    for (const [i, port] of ports.entries()) {
      const config = path.join(dir, `replica-${i}.yaml`);
      const lines = [
        `dataDir: ${JSON.stringify(path.join(dir, `data-${i}`))}`,
        `state: { url: ${JSON.stringify(redis.url)} }`,
        `audit: { url: ${JSON.stringify(postgres.url)}, signingKeyFile: ${JSON.stringify(path.join(dir, 'audit-signing-key.pem'))} }`,
        ...sluiceConfig(true, path.join(dir, 'unused-tokens.json')),
      ];
      writeFileSync(config, `${lines.join('\n')}\n`);
      const child = startProcess(name, process.execPath, [...settings.sluiceNodeArgs, CLI, 'serve', '--config', config, '--listen', `127.0.0.1:${port}`], {
        cwd: ROOT,
        env: { ...process.env, SLUICE_SESSION_KEY: sessionKey },
      });
      children.push(child);
      await waitForHttp(child, `http://127.0.0.1:${port}/readyz`, (status) => status === 200, 60_000);
    }
    if (replicas === 3) nginx = await startNginx(ports);
    const cpus = children.map((c) => treeCpu(c.proc.pid ?? 0));
    return {
      path: name,
      url: nginx ? `${nginx.url}/mcp` : `http://127.0.0.1:${ports[0]}/mcp`,
      tool: 'everything__echo',
      headers: { authorization: `Bearer ${token}` },
      cpu: () => cpus.map((read) => read()).reduce((a: CpuSplit, b) => ({ gateway: a.gateway + b.gateway, upstream: a.upstream + b.upstream }), { gateway: 0, upstream: 0 }),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A bench token in the shared token store, as `sluice token create` would make it. */
async function issueToken(url: string): Promise<string> {
  const state = await redisState(url, { keyPrefix: 'sluice:', sealKey: randomBytes(32) });
  try {
    return (await state.tokens!.issue('bench')).token;
  } finally {
    await state.close();
  }
}
