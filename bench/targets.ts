import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startIdentityProvider, type IdentityProvider } from '../test/helpers/oidc.js';
import { treeCpu } from './cpu.js';
import { waitForHttp, type HttpPath, type HttpTarget } from './http-target.js';
import { assertLoopbackOnly } from './loopback.js';
import { otlpSink } from './otlp-sink.js';
import { bin, CLI, EVERYTHING, ROOT } from './paths.js';
import { freePort, startProcess, type Child } from './processes.js';
import type { Settings } from './settings.js';
import { startShared } from './shared-targets.js';
import { sluiceConfig } from './sluice-config.js';
import { FileTokenStore } from './sluice-internals.js';

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
 * sluice as users run it: the built CLI (dist/, what `npm start` runs) with a configuration of sluice-config.ts.
 * Readiness is /readyz, which turns 200 only once server-everything has answered and listed its tools.
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
      return startShared(settings, 1);
    case 'sluice-cluster':
      return startShared(settings, 3);
    case 'mcp-proxy':
      return startMcpProxy();
    case 'supergateway':
      return startSupergateway();
    case 'raw-floor':
      return startRawFloor();
  }
}
