import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileTokenStore } from '../dist/identity/tokens.js';
import { treeCpu, type CpuSplit } from './cpu.js';
import { assertLoopbackOnly } from './loopback.js';
import { bin, CLI, EVERYTHING, ROOT } from './paths.js';
import { freePort, startProcess, type Child } from './processes.js';
import type { PathName, Settings } from './settings.js';
import { startShared } from './shared-targets.js';
import { otlpSink } from './otlp-sink.js';
import { startIdentityProvider, type IdentityProvider } from '../test/helpers/oidc.js';

export type HttpPath = Exclude<PathName, 'stdio'>;

/** One HTTP endpoint under test, running as its own process on 127.0.0.1. */
export interface HttpTarget {
  path: HttpPath;
  url: string;
  /** The echo tool's name as this endpoint lists it (sluice namespaces it). */
  tool: string;
  /** Headers every request must carry (sluice's bearer token when security is on). */
  headers: Record<string, string>;
  /** CPU used so far by the gateway process and by the server processes it spawned. */
  cpu(): CpuSplit;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

/** Resolves once `url` answers with a status `ok` accepts; any earlier refusal just means "not yet". */
async function waitForHttp(child: Child, url: string, ok: (status: number) => boolean): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`${child.name} exited with code ${child.proc.exitCode}:\n${child.output()}`);
    const status = await new Promise<number>((resolve) => {
      const req = request(url, { method: 'GET', agent: false, headers: { accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy(); // an SSE stream would stay open otherwise
      });
      req.on('error', () => resolve(0));
      req.end();
    });
    if (status !== 0 && ok(status)) return;
    await sleep(100);
  }
  throw new Error(`${child.name} did not become ready at ${url} within ${START_TIMEOUT_MS} ms:\n${child.output()}`);
}

interface Started {
  child: Child;
  port: number;
  tool: string;
  readyUrl: string;
  ready: (status: number) => boolean;
  headers?: Record<string, string>;
  cleanup?: () => void;
}

async function started(pathName: HttpPath, { child, port, tool, readyUrl, ready, headers = {}, cleanup }: Started): Promise<HttpTarget> {
  try {
    await waitForHttp(child, readyUrl, ready);
    assertLoopbackOnly(port, pathName);
  } catch (err) {
    await child.stop();
    cleanup?.();
    throw err;
  }
  return {
    path: pathName,
    url: `http://127.0.0.1:${port}/mcp`,
    tool,
    headers,
    cpu: treeCpu(child.proc.pid ?? 0),
    async stop() {
      await child.stop();
      cleanup?.();
    },
  };
}

/**
 * The two sluice configurations the bench compares. Both have one stdio upstream (server-everything) and
 * warnings-only logging; they differ only in security.
 *
 * - `sluice` (security on): authentication on (a bearer token for an agent) and a role as a real deployment
 *   would write it: unlisted tools need approval, the upstream's tools are allowed but one is denied, path
 *   rules, the default content filters; the audit log at its default (on). `everything__echo` is allowed, so
 *   each call passes the whole chokepoint (token, rate limit, tool rule, operation, paths, information flow,
 *   filters, audit record).
 * - `sluice-open` (security off): no authentication (an anonymous agent, allowed on loopback only), a role
 *   that allows everything with every filter off and no rules or rate limit, and no audit log: the cheapest
 *   the pipeline can be.
 */
function sluiceConfig(secure: boolean, tokensFile: string, audit = true): string[] {
  const upstream = [
    'mcpServers:',
    '  everything:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(EVERYTHING)}, stdio]`,
  ];
  if (!secure) {
    return [
      'logLevel: warn',
      'auth: { required: false, anonymousAgent: bench }',
      'audit: { enabled: false }',
      'agents:',
      '  bench: { role: bench }',
      'roles:',
      '  bench: { default: allow, onFlowViolation: allow, filters: { secret: off, pii: off, injection: off } }',
      ...upstream,
    ];
  }
  return [
    'logLevel: warn',
    ...(audit ? [] : ['audit: { enabled: false }']),
    'auth:',
    `  tokensFile: ${JSON.stringify(tokensFile)}`,
    'agents:',
    '  bench: { role: bench }',
    'roles:',
    '  bench:',
    '    default: approve',
    '    tools:',
    '      "everything__*": allow',
    '      "everything__get-env": deny',
    '    paths: { allow: ["/tmp/**"] }',
    '    filters: { secret: redact, pii: label, injection: label }',
    ...upstream,
  ];
}

/**
 * sluice as users run it: the built CLI (dist/, what `npm start` runs) with the configuration above. Readiness is
 * /readyz, which turns 200 only once server-everything has answered and listed its tools.
 */
type SluicePath = 'sluice' | 'sluice-baseline' | 'sluice-noaudit' | 'sluice-open' | 'sluice-oauth' | 'sluice-telemetry-off' | 'sluice-traced' | 'sluice-traced-1pct';

/** The environment of a traced path: OTLP/HTTP to the bench's sink, sampling all or 1% of traces. */
async function tracingEnv(pathName: SluicePath): Promise<NodeJS.ProcessEnv> {
  if (pathName !== 'sluice-traced' && pathName !== 'sluice-traced-1pct') return process.env;
  const sink = await otlpSink();
  return {
    ...process.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    ...(pathName === 'sluice-traced' ? { OTEL_TRACES_SAMPLER: 'always_on' } : { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' }),
  };
}

/** The other build `sluice-baseline` runs: a dist/cli/main.js of another checkout. */
function baselineCli(): string {
  const cli = process.env.BENCH_BASELINE_CLI;
  if (!cli || !existsSync(cli)) throw new Error('sluice-baseline needs BENCH_BASELINE_CLI=<another checkout>/dist/cli/main.js (built)');
  return cli;
}

async function startSluice(settings: Settings, pathName: SluicePath): Promise<HttpTarget> {
  const secure = pathName !== 'sluice-open';
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-bench-'));
  const config = path.join(dir, 'sluice.yaml');
  const tokensFile = path.join(dir, 'tokens.json');
  let lines = sluiceConfig(secure, tokensFile, pathName !== 'sluice-noaudit');
  if (pathName === 'sluice-telemetry-off') lines = ['metrics: { enabled: false }', ...lines];
  let idp: IdentityProvider | undefined;
  let bearer: string | undefined;
  if (pathName === 'sluice-oauth') {
    // The same configuration, but the client's token is an OAuth access token from a real authorization server.
    idp = await startIdentityProvider();
    lines = lines.flatMap((l) => (l === 'auth:' ? [l, '  oauth:', `    issuer: ${idp!.issuer}`, '    scopes: { "mcp:read": bench }'] : [l]));
    bearer = await idp.clientToken({ resource: `http://127.0.0.1:${port}/mcp`, scope: 'mcp:read' });
  }
  writeFileSync(config, [...lines, ''].join('\n'));
  // Through sluice's own token store, so the bench never depends on how the file is laid out.
  bearer ??= secure ? new FileTokenStore(tokensFile).create('bench').token : undefined;
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  const child = startProcess(
    pathName,
    process.execPath,
    [...settings.sluiceNodeArgs, pathName === 'sluice-baseline' ? baselineCli() : CLI, 'serve', '--config', config, '--listen', `127.0.0.1:${port}`],
    { cwd: ROOT, env: await tracingEnv(pathName) },
  );
  return started(pathName, {
    child,
    port,
    tool: 'everything__echo',
    readyUrl: `http://127.0.0.1:${port}/readyz`,
    ready: (s) => s === 200,
    headers,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      void idp?.stop();
    },
  });
}

/** mcp-proxy with its documented loopback flag, Streamable HTTP only (no SSE endpoint). */
async function startMcpProxy(): Promise<HttpTarget> {
  const port = await freePort();
  const child = startProcess('mcp-proxy', bin('mcp-proxy'), ['--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--', process.execPath, EVERYTHING, 'stdio'], { cwd: ROOT });
  return started('mcp-proxy', { child, port, tool: 'echo', readyUrl: `http://127.0.0.1:${port}/mcp`, ready: () => true });
}

/**
 * supergateway in its transparent mode (--stateful: one server-everything per session). It has no host
 * option, so our preload forces loopback; `--logLevel none` because its default logs every message to
 * stdout, and sluice runs with warnings only: each gateway gets its quietest setting.
 */
async function startSupergateway(): Promise<HttpTarget> {
  const port = await freePort();
  const preload = path.join(ROOT, 'test/fixtures/force-loopback.cjs');
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(preload)}`.trim() };
  const child = startProcess(
    'supergateway',
    bin('supergateway'),
    ['--stdio', `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING)} stdio`, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'],
    { cwd: ROOT, env },
  );
  return started('supergateway', { child, port, tool: 'echo', readyUrl: `http://127.0.0.1:${port}/mcp`, ready: () => true });
}

async function startRawFloor(): Promise<HttpTarget> {
  const port = await freePort();
  const child = startProcess('raw-floor', process.execPath, ['--import', 'tsx', 'bench/raw-floor.ts', String(port)], { cwd: ROOT });
  return started('raw-floor', { child, port, tool: 'echo', readyUrl: `http://127.0.0.1:${port}/mcp`, ready: (s) => s === 405 });
}

export function startTarget(pathName: HttpPath, settings: Settings): Promise<HttpTarget> {
  switch (pathName) {
    case 'sluice':
    case 'sluice-baseline':
    case 'sluice-noaudit':
    case 'sluice-open':
    case 'sluice-oauth':
    case 'sluice-telemetry-off':
    case 'sluice-traced':
    case 'sluice-traced-1pct':
      return startSluice(settings, pathName);
    case 'sluice-shared':
      return startShared(settings, (tokens) => sluiceConfig(true, tokens), 1);
    case 'sluice-cluster':
      return startShared(settings, (tokens) => sluiceConfig(true, tokens), 3);
    case 'mcp-proxy':
      return startMcpProxy();
    case 'supergateway':
      return startSupergateway();
    case 'raw-floor':
      return startRawFloor();
  }
}
