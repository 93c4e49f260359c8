import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/schema.js';
import { checkLocalRequest } from '../../src/transports/guards.js';
import { findEngine } from '../setup/engines.js';

/**
 * The deployment files in deploy/ agree with each other and with sluice itself: one port, one config path,
 * one set of environment variables, probes that sluice answers, a config sluice's own loader accepts, and an
 * nginx.conf that nginx itself accepts. Nothing is started but `nginx -t`.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEPLOY = path.join(ROOT, 'deploy');
const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');

// Loosely typed views of the manifests: the test reads what it checks and fails on what is missing.
type Json = any;

function manifests(file: string): Json[] {
  return parseAllDocuments(read(file)).map((doc) => {
    expect(doc.errors, file).toEqual([]);
    return doc.toJS();
  });
}
function manifest(file: string, kind: string): Json {
  const found = manifests(file).filter((m) => m?.kind === kind);
  expect(found, `${file}: one ${kind}`).toHaveLength(1);
  return found[0];
}

const CONFIG_TEXT = read('sluice.yaml');
const CONFIG_PATH = '/etc/sluice/sluice.yaml';
const EXAMPLE_ENV = {
  SLUICE_STATE_URL: 'redis://redis:6379/0',
  SLUICE_AUDIT_URL: 'postgres://sluice:example@postgres:5432/sluice',
  SLUICE_SESSION_KEY: 'a'.repeat(64),
};
const config: GatewayConfig = parseConfig(CONFIG_TEXT, CONFIG_PATH, EXAMPLE_ENV);
const PORT = config.listen.port;
const GRACE_SECONDS = config.http.shutdownGraceMs / 1000;

const configMap = manifest('k8s/configmap.yaml', 'ConfigMap');
const secret = manifest('k8s/secret.yaml', 'Secret');
const deployment = manifest('k8s/deployment.yaml', 'Deployment');
const service = manifest('k8s/service.yaml', 'Service');
const pdb = manifest('k8s/pdb.yaml', 'PodDisruptionBudget');
const hpa = manifest('k8s/hpa.yaml', 'HorizontalPodAutoscaler');
const pod = deployment.spec.template.spec;
const container = pod.containers.find((c: Json) => c.name === 'sluice');
const secretData: Record<string, string> = { ...secret.stringData, ...decode(secret.data) };

// Compose files use YAML merge keys (<<: *sluice) for the replicas.
const compose = parse(read('docker-compose.yml'), { merge: true });
const replicas = Object.entries(compose.services as Record<string, Json>).filter(([, s]) => s.build?.dockerfile === 'deploy/Dockerfile');

const dockerfile = dockerStages(read('Dockerfile'));
const runtime = dockerfile[dockerfile.length - 1];

const NGINX = read('nginx.conf');
const NGINX_DIRECTIVES = NGINX.replace(/#.*$/gm, '');

/** `${VAR}` (no default) in any string value of the config: what the environment must provide. */
const REQUIRED_VARS = [...new Set(strings(parse(CONFIG_TEXT)).flatMap((s) => [...s.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1])))];

describe('deploy/sluice.yaml', () => {
  it('passes sluice’s own config loader and makes a cluster config', () => {
    expect(config.listen.host).toBe('0.0.0.0');
    expect(config.state.url).toBe(EXAMPLE_ENV.SLUICE_STATE_URL);
    expect(config.security.audit.url).toBe(EXAMPLE_ENV.SLUICE_AUDIT_URL);
    expect(config.security.audit.signingKeyFile).toBe('/etc/sluice/keys/audit-signing-key.pem');
    expect(config.dataDir).toBe('/var/lib/sluice');
    expect(REQUIRED_VARS.sort()).toEqual(['SLUICE_AUDIT_URL', 'SLUICE_STATE_URL']);
    // The variables are really needed: without them the loader refuses.
    expect(() => parseConfig(CONFIG_TEXT, CONFIG_PATH, {})).toThrow(ConfigError);
  });

  it('names an upstream that exists inside the image and speaks stdio', () => {
    expect(config.servers).toHaveLength(1);
    const server = config.servers[0];
    if (server.transport !== 'stdio') throw new Error('expected a stdio upstream');
    expect(server.command).toBe('node');
    const [entry, transport] = server.args;
    expect(entry.startsWith('/app/node_modules/')).toBe(true);
    expect(existsSync(path.join(ROOT, entry.slice('/app/'.length))), entry).toBe(true);
    const pkgDir = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything');
    const bin = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).bin['mcp-server-everything'];
    expect(path.join(pkgDir, bin)).toBe(path.join(ROOT, entry.slice('/app/'.length)));
    expect(transport).toBe('stdio');
    expect(readFileSync(path.join(pkgDir, bin), 'utf8')).toContain('case "stdio"');
    // The image puts node_modules there.
    expect(runtime.find((i) => i.op === 'WORKDIR')?.args).toBe('/app');
    expect(runtime.some((i) => i.op === 'COPY' && /\/app\/node_modules \.\/node_modules$/.test(i.args))).toBe(true);
  });

  it('is what the ConfigMap holds', () => {
    expect(configMap.data['sluice.yaml']).toBe(CONFIG_TEXT);
  });
});

describe('ports, probes and health checks', () => {
  const HTTP_SOURCE = readFileSync(path.join(ROOT, 'src/transports/http-front.ts'), 'utf8');

  it('sluice answers the probed paths', () => {
    expect(HTTP_SOURCE).toContain("path === '/readyz'");
    expect(HTTP_SOURCE).toContain("path === '/healthz'");
  });

  it('every port is the config’s listen port', () => {
    const named = (port: number | string) => (typeof port === 'number' ? port : container.ports.find((p: Json) => p.name === port)?.containerPort);
    expect(container.ports.map((p: Json) => p.containerPort)).toEqual([PORT]);
    expect(named(container.readinessProbe.httpGet.port)).toBe(PORT);
    expect(named(container.livenessProbe.httpGet.port)).toBe(PORT);
    expect(service.spec.ports).toHaveLength(1);
    expect(named(service.spec.ports[0].targetPort)).toBe(PORT);
    expect(runtime.filter((i) => i.op === 'EXPOSE').map((i) => i.args)).toEqual([String(PORT)]);
    expect(healthcheckUrl(runtime.find((i) => i.op === 'HEALTHCHECK')!.args)).toBe(`http://127.0.0.1:${PORT}/readyz`);
    for (const [name, s] of replicas) expect(healthcheckUrl(s.healthcheck.test.join(' ')), name).toBe(`http://127.0.0.1:${PORT}/readyz`);
    for (const server of nginxUpstreamServers()) expect(server.port).toBe(PORT);
  });

  it('probes are /readyz and /healthz, with a Host that sluice’s DNS-rebinding guard lets through', () => {
    const readiness = container.readinessProbe.httpGet;
    const liveness = container.livenessProbe.httpGet;
    expect(readiness.path).toBe('/readyz');
    expect(liveness.path).toBe('/healthz');
    for (const probe of [readiness, liveness]) {
      const host = probe.httpHeaders?.find((h: Json) => h.name.toLowerCase() === 'host')?.value;
      expect(host, 'the kubelet sends the pod IP as Host unless told otherwise').toBeDefined();
      expect(checkLocalRequest(config, request(`${host}:${PORT}`))).toBeUndefined();
    }
    // Which is why: the pod's own address is refused.
    expect(checkLocalRequest(config, request(`10.1.2.3:${PORT}`))).toMatch(/Invalid Host/);
    // The container health checks use 127.0.0.1, and the names behind the load balancer are allowed.
    expect(checkLocalRequest(config, request(`127.0.0.1:${PORT}`))).toBeUndefined();
    expect(checkLocalRequest(config, request('sluice.example.com'))).toBeUndefined();
  });
});

describe('environment: every variable the config uses, and SLUICE_SESSION_KEY, is provided', () => {
  const NEEDED = [...REQUIRED_VARS, 'SLUICE_SESSION_KEY'];

  it('by the Secret, through the Deployment', () => {
    for (const name of NEEDED) {
      expect(Object.keys(secretData), name).toContain(name);
      const env = container.env.find((e: Json) => e.name === name);
      expect(env?.valueFrom?.secretKeyRef, name).toEqual({ name: secret.metadata.name, key: name });
    }
  });

  it('with placeholders that shape-check but cannot be run as they are', () => {
    // The example URLs have the shape sluice's loader wants…
    const fromSecret = parseConfig(CONFIG_TEXT, CONFIG_PATH, secretData);
    expect(fromSecret.state.url).toBe(secretData.SLUICE_STATE_URL);
    expect(fromSecret.security.audit.url).toBe(secretData.SLUICE_AUDIT_URL);
    // …but every value says to replace it, and the session key is not a valid one (sluice refuses to start).
    for (const [key, value] of Object.entries(secretData)) expect(value, key).toMatch(/REPLACE-ME/);
    expect(secretData.SLUICE_SESSION_KEY).not.toMatch(/^[0-9a-fA-F]{64}$/);
  });

  it('by docker compose, on every replica', () => {
    for (const [name, s] of replicas) {
      const env = environment(s.environment);
      for (const v of NEEDED) expect(env[v], `${name}: ${v}`).toBeTruthy();
      // Compose fills ${POSTGRES_PASSWORD:?…} itself; with a value there, sluice's loader accepts the URLs.
      const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{[^}]*\}/g, 'example')]));
      const parsed = parseConfig(CONFIG_TEXT, CONFIG_PATH, filled);
      // The URLs point at the compose services, with the database's own user and name.
      const pg = compose.services.postgres.environment;
      expect(new URL(parsed.state.url!).hostname).toBe('redis');
      const audit = new URL(parsed.security.audit.url!);
      expect([audit.hostname, audit.username, audit.pathname]).toEqual(['postgres', pg.POSTGRES_USER, `/${pg.POSTGRES_DB}`]);
    }
  });
});

describe('kubernetes', () => {
  const labels = deployment.spec.template.metadata.labels;
  const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

  it('runs 3 non-root replicas on a read-only root file system', () => {
    expect(deployment.spec.replicas).toBe(3);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBe(imageUid());
    expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(container.securityContext.capabilities.drop).toContain('ALL');
    expect(container.resources.requests.cpu).toBeDefined(); // the HPA's utilisation is relative to it
    expect(container.resources.limits.memory).toBeDefined();
  });

  it('mounts the config, the signing key, the data dir and /tmp where sluice looks', () => {
    expect(container.args).toEqual(['serve', '--config', CONFIG_PATH]);
    const mount = (at: string) => container.volumeMounts.find((m: Json) => m.mountPath === at);
    const volume = (name: string) => pod.volumes.find((v: Json) => v.name === name);

    const cfg = mount(CONFIG_PATH);
    expect(volume(cfg.name).configMap.name).toBe(configMap.metadata.name);
    expect(cfg.subPath).toBe('sluice.yaml');

    const keyFile = config.security.audit.signingKeyFile;
    const keys = mount(path.dirname(keyFile));
    expect(keys.readOnly).toBe(true);
    const keyVolume = volume(keys.name).secret;
    expect(keyVolume.secretName).toBe(secret.metadata.name);
    expect(keyVolume.items).toEqual([{ key: path.basename(keyFile), path: path.basename(keyFile) }]);
    expect(Object.keys(secretData)).toContain(path.basename(keyFile));

    for (const dir of [config.dataDir, '/tmp']) expect(volume(mount(dir).name).emptyDir, dir).toBeDefined();
  });

  it('gives a stopping replica longer than sluice’s shutdown grace', () => {
    const preStop = container.lifecycle?.preStop?.exec?.command;
    const sleep = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(GRACE_SECONDS + sleep);
  });

  it('labels and selectors agree; no session affinity', () => {
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    expect(selects(service.spec.selector)).toBe(true);
    expect(service.spec.sessionAffinity ?? 'None').toBe('None');
    expect(selects(pdb.spec.selector.matchLabels)).toBe(true);
    expect(pdb.apiVersion).toBe('policy/v1');
    expect(pdb.spec.minAvailable === 2 || pdb.spec.maxUnavailable === 1).toBe(true);
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    expect(hpa.spec.metrics).toEqual([expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) })]);
    expect(hpa.spec.minReplicas).toBeGreaterThan(pdb.spec.minAvailable ?? 0);
    expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
  });
});

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

describe('deploy/nginx.conf', () => {
  it('round robin without stickiness, streams unbuffered, WebSocket upgrades passed, POSTs never replayed', () => {
    expect(NGINX_DIRECTIVES).not.toMatch(/(^|[;{])\s*(ip_hash|hash|sticky)\b/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_buffering off;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_cache off;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_http_version 1\.1;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*map \$http_upgrade \$connection_upgrade \{/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_set_header Upgrade \$http_upgrade;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_set_header Connection \$connection_upgrade;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_set_header Host \$host;/m);
    const nextUpstream = [...NGINX_DIRECTIVES.matchAll(/^\s*proxy_next_upstream\s+([^;]*);/gm)].map((m) => m[1]);
    expect(nextUpstream).toEqual(['error timeout']);
    const readTimeout = /^\s*proxy_read_timeout\s+(\w+);/m.exec(NGINX_DIRECTIVES)?.[1];
    expect(seconds(readTimeout)).toBeGreaterThanOrEqual(600);
  });

  describe('nginx -t', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-nginx-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** deploy/nginx.conf with the replicas on loopback and nginx's temp paths in `dir`, checked by nginx itself. */
    function nginxTest(conf: string): { ok: boolean; output: string } {
      const binary = findEngine('nginx');
      if (!binary) throw new Error('nginx is not installed (the global setup in test/setup/engines.ts installs it; on Debian: apt-get install nginx)');
      let port = 18_000;
      const local = conf.replace(/^(\s*server\s+)([A-Za-z0-9.-]+):(\d+)/gm, (_m, lead: string) => `${lead}127.0.0.1:${++port}`);
      expect(port, 'the replicas were rewritten').toBe(18_000 + replicas.length);
      const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${path.join(dir, t)};\n`).join('');
      const file = path.join(dir, 'nginx.conf');
      // Node gives a child sockets, not pipes, for stdout, and nginx cannot open() a socket: log to a file here.
      const logs = local.replace(/^(\s*access_log\s+)[^\s;]+/gm, (_m, lead: string) => `${lead}${path.join(dir, 'access.log')}`);
      writeFileSync(file, logs.replace(/^http \{\n/m, (m) => m + temps));
      const run = spawnSync(binary, ['-t', '-p', `${dir}/`, '-e', 'stderr', '-c', file, '-g', `pid ${path.join(dir, 'nginx.pid')};`], { encoding: 'utf8', timeout: 10_000 });
      return { ok: run.status === 0, output: `${run.stdout}${run.stderr}${run.error ? String(run.error) : ''}` };
    }

    it('accepts the config', () => {
      const result = nginxTest(NGINX);
      expect(result.output).toMatch(/syntax is ok/);
      expect(result.ok, result.output).toBe(true);
    });

    it('(and really checks it: a broken copy is refused)', () => {
      const result = nginxTest(NGINX.replace('proxy_buffering off;', 'proxy_buffering of;'));
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(/proxy_buffering/);
    });
  });
});

// ---- helpers ----

interface Instruction {
  op: string;
  args: string;
}

/** A Dockerfile's instructions by stage (continuations joined, comments dropped, global ARG defaults filled into FROM). */
function dockerStages(text: string): Instruction[][] {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^(\w+)\s+(.*)$/.exec(line)!;
      return { op: m[1].toUpperCase(), args: m[2].replace(/\s+/g, ' ') };
    });
  const args: Record<string, string> = {};
  const stages: Instruction[][] = [];
  for (const i of instructions) {
    if (i.op === 'FROM') {
      stages.push([{ op: 'FROM', args: i.args.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a?: string, b?: string) => args[(a ?? b)!] ?? '') }]);
    } else if (stages.length === 0) {
      if (i.op === 'ARG') {
        const [name, value] = i.args.split('=');
        args[name] = value ?? '';
      }
    } else {
      stages[stages.length - 1].push(i);
    }
  }
  return stages;
}

/** The uid of the image's USER (the last one of the runtime stage); numeric or it fails. */
function imageUid(): number {
  const user = runtime.filter((i) => i.op === 'USER').at(-1)?.args ?? '';
  expect(user, 'USER must be numeric (uid[:gid]) so runAsNonRoot can check it').toMatch(/^\d+(:\d+)?$/);
  return Number(user.split(':')[0]);
}

function healthcheckUrl(command: string): string | undefined {
  return /fetch\('([^']+)'\)/.exec(command)?.[1];
}

function nginxUpstreamServers(): { host: string; port: number }[] {
  const upstream = /^\s*upstream\s+\S+\s*\{([^}]*)\}/m.exec(NGINX_DIRECTIVES)?.[1] ?? '';
  return [...upstream.matchAll(/^\s*server\s+([A-Za-z0-9.-]+):(\d+)/gm)].map((m) => ({ host: m[1], port: Number(m[2]) }));
}

function environment(env: Record<string, string> | string[] | undefined): Record<string, string> {
  if (Array.isArray(env)) return Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  return { ...env };
}

function decode(data: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** nginx and compose durations: 30, "20s", "5m", "1h". */
function seconds(value: unknown): number {
  const m = /^(\d+)(s|m|h)?$/.exec(String(value));
  if (!m) throw new Error(`not a duration: ${String(value)}`);
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 's' | 'm' | 'h'];
}

function request(host: string): IncomingMessage {
  return { headers: { host } } as IncomingMessage;
}
