/**
 * The deployment files in deploy/, read once for the test/unit/deploy-*.test.ts files: sluice.yaml through sluice's
 * own loader, the Kubernetes manifests, docker-compose.yml, the Dockerfile by stage and nginx.conf, and the readers
 * the tests share. Nothing here starts anything.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/schema.js';
import { ROOT } from './servers.js';

const DEPLOY = path.join(ROOT, 'deploy');
const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');

// Loosely typed views of the manifests: the tests read what it checks and fails on what is missing.
export type Json = any;

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

export const CONFIG_TEXT = read('sluice.yaml');
export const CONFIG_PATH = '/etc/sluice/sluice.yaml';
export const EXAMPLE_ENV = {
  SLUICE_STATE_URL: 'redis://redis:6379/0',
  SLUICE_AUDIT_URL: 'postgres://sluice:example@postgres:5432/sluice',
  SLUICE_SESSION_KEY: 'a'.repeat(64),
};
export const config: GatewayConfig = parseConfig(CONFIG_TEXT, CONFIG_PATH, EXAMPLE_ENV);
export const PORT = config.listen.port;
export const GRACE_SECONDS = config.http.shutdownGraceMs / 1000;

export const configMap = manifest('k8s/configmap.yaml', 'ConfigMap');
export const secret = manifest('k8s/secret.yaml', 'Secret');
export const deployment = manifest('k8s/deployment.yaml', 'Deployment');
export const service = manifest('k8s/service.yaml', 'Service');
export const pdb = manifest('k8s/pdb.yaml', 'PodDisruptionBudget');
export const hpa = manifest('k8s/hpa.yaml', 'HorizontalPodAutoscaler');
export const pod = deployment.spec.template.spec;
export const container = pod.containers.find((c: Json) => c.name === 'sluice');
export const secretData: Record<string, string> = { ...secret.stringData, ...decode(secret.data) };

// Compose files use YAML merge keys (<<: *sluice) for the replicas.
export const compose = parse(read('docker-compose.yml'), { merge: true });
export const replicas = Object.entries(compose.services as Record<string, Json>).filter(([, s]) => s.build?.dockerfile === 'deploy/Dockerfile');

export const dockerfile = dockerStages(read('Dockerfile'));
export const runtime = dockerfile[dockerfile.length - 1];

export const NGINX = read('nginx.conf');
export const NGINX_DIRECTIVES = NGINX.replace(/#.*$/gm, '');

/** `${VAR}` (no default) in any string value of the config: what the environment must provide. */
export const REQUIRED_VARS = [...new Set(strings(parse(CONFIG_TEXT)).flatMap((s) => [...s.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1])))];

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
export function imageUid(): number {
  const user = runtime.filter((i) => i.op === 'USER').at(-1)?.args ?? '';
  expect(user, 'USER must be numeric (uid[:gid]) so runAsNonRoot can check it').toMatch(/^\d+(:\d+)?$/);
  return Number(user.split(':')[0]);
}

export function healthcheckUrl(command: string): string | undefined {
  return /fetch\('([^']+)'\)/.exec(command)?.[1];
}

export function nginxUpstreamServers(): { host: string; port: number }[] {
  const upstream = /^\s*upstream\s+\S+\s*\{([^}]*)\}/m.exec(NGINX_DIRECTIVES)?.[1] ?? '';
  return [...upstream.matchAll(/^\s*server\s+([A-Za-z0-9.-]+):(\d+)/gm)].map((m) => ({ host: m[1], port: Number(m[2]) }));
}

export function environment(env: Record<string, string> | string[] | undefined): Record<string, string> {
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
export function seconds(value: unknown): number {
  const m = /^(\d+)(s|m|h)?$/.exec(String(value));
  if (!m) throw new Error(`not a duration: ${String(value)}`);
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 's' | 'm' | 'h'];
}

export function request(host: string): IncomingMessage {
  return { headers: { host } } as IncomingMessage;
}
