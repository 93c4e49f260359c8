/** deploy/Dockerfile and deploy/docker-compose.yml: the image sluice runs in, and the replicas, stores and nginx compose starts. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_PATH, GRACE_SECONDS, compose, config, dockerfile, imageUid, nginxUpstreamServers, replicas, runtime, seconds, type Json } from '../helpers/deploy.js';
import { ROOT } from '../helpers/servers.js';

describe('Dockerfile', () => {
  it('builds on the pinned node image in two stages', () => {
    expect(dockerfile).toHaveLength(2);
    for (const stage of dockerfile) expect(stage[0].args.split(/\s+/)[0]).toBe('node:20.20-bookworm-slim');
    const build = dockerfile[0].filter((i) => i.op === 'RUN').map((i) => i.args).join(' && ');
    expect(build).toMatch(/npm ci\b/);
    expect(build).toMatch(/npm run build\b/);
    expect(build).toMatch(/npm prune --omit=dev\b/);
    const copied = runtime.filter((i) => i.op === 'COPY' && i.args.startsWith('--from=')).map((i) => i.args);
    for (const what of ['dist', 'node_modules', 'package.json']) expect(copied.some((c) => c.includes(`/app/${what}`)), what).toBe(true);
  });

  it('runs as a numeric non-root user with writable places for a read-only root', () => {
    expect(imageUid()).toBeGreaterThan(0);
    const volumes = runtime.filter((i) => i.op === 'VOLUME').flatMap((i) => JSON.parse(i.args) as string[]);
    expect(volumes).toEqual(expect.arrayContaining([config.dataDir, '/tmp']));
    const env = runtime.filter((i) => i.op === 'ENV').map((i) => i.args).join(' ');
    expect(env).toMatch(/\bHOME=\/tmp\b/);
    expect(env).toMatch(/\bTMPDIR=\/tmp\b/);
  });

  it('starts `sluice serve --config` on the config path, with a node health check on /readyz', () => {
    const json = (op: string) => JSON.parse(runtime.find((i) => i.op === op)!.args) as string[];
    const bin = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin.sluice;
    expect([...json('ENTRYPOINT'), ...json('CMD')]).toEqual(['node', `/app/${bin}`, 'serve', '--config', CONFIG_PATH]);
    expect(readFileSync(path.join(ROOT, 'src/cli/main.ts'), 'utf8')).toContain(".option('-c, --config <file>'");
    const healthcheck = runtime.find((i) => i.op === 'HEALTHCHECK')!.args;
    expect(healthcheck).toContain('/readyz');
    expect(healthcheck).toMatch(/CMD \["node",/);
  });
});

describe('docker compose', () => {
  it('runs Redis, Postgres and 3 sluice replicas, read-only and non-root', () => {
    expect(compose.services.redis.image).toBe('redis:7');
    expect(compose.services.postgres.image).toBe('postgres:16');
    expect(Object.keys(compose.services.postgres.environment)).toEqual(expect.arrayContaining(['POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB']));
    const count = replicas.reduce((n, [, s]) => n + (s.deploy?.replicas ?? 1), 0);
    expect(count).toBe(3);
    for (const [name, s] of replicas) {
      expect(s.read_only, name).toBe(true);
      expect(Number(String(s.user).split(':')[0]), name).toBe(imageUid());
      expect(s.tmpfs, name).toContain('/tmp');
      expect(s.volumes.some((v: string) => v.endsWith(`:${config.dataDir}`)), `${name}: a volume for the data dir`).toBe(true);
      expect(s.healthcheck.test.join(' '), name).toContain('/readyz');
      expect(s.depends_on, name).toEqual({ redis: { condition: 'service_healthy' }, postgres: { condition: 'service_healthy' } });
      expect(seconds(s.stop_grace_period), name).toBeGreaterThan(GRACE_SECONDS);
      // The config and the signing key land where the config and the image expect them.
      const cfg = s.configs.find((c: Json) => c.target === CONFIG_PATH);
      expect(compose.configs[cfg.source].file).toBe('./sluice.yaml');
      const key = s.secrets.find((c: Json) => c.target === config.security.audit.signingKeyFile);
      expect(compose.secrets[key.source].file, `${name}: the signing key`).toBeDefined();
    }
    expect(new Set(replicas.map(([, s]) => s.volumes.join())).size, 'each replica has its own data volume').toBe(replicas.length);
  });

  it('puts nginx in front of every replica', () => {
    const nginx = compose.services.nginx;
    expect(nginx.image).toBe('nginx:1.27');
    expect(nginx.volumes).toContain('./nginx.conf:/etc/nginx/nginx.conf:ro');
    const names = replicas.map(([name]) => name);
    expect(Object.keys(nginx.depends_on).sort()).toEqual([...names].sort());
    for (const name of names) expect(nginx.depends_on[name].condition).toBe('service_healthy');
    expect(nginxUpstreamServers().map((s) => s.host).sort()).toEqual([...names].sort());
  });
});
