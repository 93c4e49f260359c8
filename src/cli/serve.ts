import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayConfig } from '../config/schema.js';
import { createGateway, type GatewayDeps } from '../gateway/create.js';
import { FrontDoor } from '../gateway/front-door.js';
import type { Gateway } from '../gateway/gateway.js';
import { stdioPrincipal } from '../identity/principal.js';
import type { Logger } from '../log.js';
import { GatewayMetrics } from '../telemetry/metrics.js';
import { tracingRequested } from '../telemetry/tracing-env.js';
import { HttpFront } from '../transports/http-front.js';
import { serveMetrics } from '../transports/metrics-endpoint.js';
import { NO_STDIO_IDENTITY, serveStdio } from '../transports/stdio.js';
import { attachWebSocket } from '../transports/websocket.js';
import type { WebSocketServer } from 'ws';

export interface RunningGateway {
  gateway: Gateway;
  http?: HttpFront;
  /** The address actually bound (port 0 in the config means "any free port"). */
  address?: { host: string; port: number };
  stop(): Promise<void>;
}

export interface StartOptions {
  stdio?: boolean;
  http?: boolean;
  deps?: GatewayDeps;
}

/** Starts a gateway (see openGateway) and resolves once every upstream's first connection attempt has ended. */
export async function startGateway(config: GatewayConfig, log: Logger, options: StartOptions = {}): Promise<RunningGateway> {
  const running = await openGateway(config, log, options);
  await running.gateway.start();
  return running;
}

/**
 * Opens a gateway: the HTTP and WebSocket front on one port at once — /healthz answers, /readyz says which
 * upstreams are still starting — while the upstreams connect in the background (in parallel; failures only mark
 * them unavailable), and stdio when asked. With `http: false` only stdio serves. `gateway.start()` tells when
 * the upstreams' first attempts have ended.
 */
export async function openGateway(config: GatewayConfig, log: Logger, options: StartOptions = {}): Promise<RunningGateway> {
  if (options.stdio && !stdioPrincipal(config.security)) {
    // Said on stderr now, and to the client in answer to its requests (see serveStdio): a client that only
    // saw its pipe close would not know why.
    log.error(NO_STDIO_IDENTITY);
  }
  const gateway = await createGateway(config, { ...options.deps, log });
  // Every transport comes in through the one front door.
  const front = new FrontDoor(gateway);
  // Upstreams connect in the background of a stdio client: it is answered at once (initialize, server/discover)
  // and hears list_changed as servers come up — clients give up on a silent server after a few seconds.
  const started = gateway.start();
  // Whoever waits for the start (startGateway, the CLI) hears how it ended; this only keeps an early failure
  // from counting as unhandled before they ask.
  started.catch(() => undefined);
  let stop: () => Promise<void> = async () => undefined;
  if (options.stdio) {
    void serveStdio(gateway, front).then(async () => {
      log.info('stdin closed; shutting down');
      await started.catch(() => undefined);
      await stop();
      process.exit(0);
    });
  }
  let http: HttpFront | undefined;
  let wss: WebSocketServer | undefined;
  let address: RunningGateway['address'];
  const metrics = config.metrics.enabled ? new GatewayMetrics(gateway) : undefined;
  // Traces when the standard OTEL_* variables ask for them; loaded only then (the SDK is large).
  const tracing = tracingRequested() ? new (await import('../telemetry/tracing.js')).GatewayTracing() : undefined;
  const metricsServer = metrics && config.metrics.listen ? await listenForMetrics(gateway, metrics, config.metrics.listen, log) : undefined;
  if (options.http !== false) {
    http = new HttpFront(gateway, front, metricsServer ? undefined : metrics, metrics?.activity);
    wss = attachWebSocket(gateway, front, http.server);
    // Listening does not wait for the upstreams: /healthz answers while they connect, /readyz says which are
    // still starting, and requests wait for their first attempt as they would at any time (Gateway.firstStart).
    await new Promise<void>((resolve, reject) => {
      http!.server.once('error', reject);
      http!.server.listen(config.listen.port, config.listen.host, () => resolve());
    }).catch(async (err: unknown) => {
      await gateway.stop().catch(() => undefined);
      throw err;
    });
    const bound = http.server.address() as AddressInfo;
    address = { host: bound.address, port: bound.port };
    gateway.oauth?.listeningAt(`http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}/mcp`);
    if (config.security.oauth && !config.security.oauth.audience && !/^(127\.|::1$)/.test(bound.address)) {
      log.warn({ audience: gateway.oauth?.resource }, 'auth.oauth has no audience: tokens must be issued for this listening address; set auth.oauth.audience to the URL clients use');
    }
    log.info({ url: `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}/mcp`, ws: '/ws' }, 'sluice listening');
  }
  /**
   * Shutdown in order: stop accepting, let calls in flight finish (up to the grace period), close WebSockets
   * with 1001 and end SSE streams, then stop the gateway — which commits and signs the audit log and stops
   * the upstreams. An open WebSocket no longer keeps the process alive.
   */
  let stopping: Promise<void> | undefined;
  stop = () =>
    (stopping ??= (async () => {
      http?.server.close();
      metricsServer?.close();
      await callsFinished(gateway, config.http.shutdownGraceMs);
      for (const ws of wss?.clients ?? []) ws.close(1001, 'sluice is shutting down');
      wss?.close();
      await http?.close();
      for (const ws of wss?.clients ?? []) ws.terminate();
      metrics?.stop();
      await gateway.stop();
      await tracing?.stop();
    })());
  return { gateway, http, address, stop };
}

/** Resolves once no session has a call in flight or waiting for the upstreams' first start, or after `graceMs`. */
async function callsFinished(gateway: Gateway, graceMs: number): Promise<void> {
  const until = Date.now() + graceMs;
  const busy = () => gateway.waitingForStart > 0 || [...gateway.sessions.all.values()].some((s) => s.inflight.size > 0);
  while (busy() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

/** `metrics.listen`: /metrics on a port of its own, with the same access rules. */
async function listenForMetrics(gateway: Gateway, metrics: GatewayMetrics, at: { host: string; port: number }, log: Logger): Promise<Server> {
  const server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/metrics') return void res.writeHead(404).end();
    void serveMetrics(gateway, metrics, req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  log.info({ url: `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}/metrics` }, 'metrics listening');
  return server;
}
