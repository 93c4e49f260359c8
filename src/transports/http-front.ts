import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FrontDoor } from '../gateway/front-door.js';
import type { Gateway } from '../gateway/gateway.js';
import type { Principal } from '../identity/principal.js';
import { ErrorCode } from '../protocol/jsonrpc.js';
import type { Activity } from '../telemetry/activity.js';
import type { GatewayMetrics } from '../telemetry/metrics.js';
import { AdminApi } from './admin.js';
import { authenticate, challengeFor, clientKey } from './authenticate.js';
import { serveConsole } from './console-files.js';
import { checkLocalRequest } from './guards.js';
import { StreamableHttp } from './http.js';
import { jsonError, readJsonBody, reply } from './http-io.js';
import { LegacySse } from './legacy-sse.js';
import { serveMetrics } from './metrics-endpoint.js';

/**
 * The HTTP port and its routes: Streamable HTTP at /mcp (http.ts), the 2024-11-05 HTTP+SSE transport at /sse
 * and /messages (legacy-sse.ts), /healthz and /readyz, OAuth protected-resource metadata, /metrics, the admin
 * API and the console. Every request first passes the Host/Origin guard; the MCP paths then need a caller.
 */
export class HttpFront {
  readonly server: Server;
  private readonly mcp: StreamableHttp;
  private readonly legacySse: LegacySse;
  private readonly admin: AdminApi;

  constructor(
    private readonly gateway: Gateway,
    private readonly front: FrontDoor,
    /** Prometheus metrics served at /metrics on this port (unless they have a port of their own). */
    private readonly metrics?: GatewayMetrics,
    /** What the console's charts draw (the metrics' activity), wherever /metrics is served. */
    activity?: Activity,
  ) {
    this.admin = new AdminApi(gateway, activity);
    this.mcp = new StreamableHttp(front, gateway.config.http.maxBodyBytes);
    this.legacySse = new LegacySse(front, gateway.state, gateway.log);
    front.legacy.start();
    this.server = createServer((req, res) => this.route(req, res));
    this.server.keepAliveTimeout = 65_000;
  }

  async close(): Promise<void> {
    this.legacySse.close();
    await this.front.legacy.closeAll();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const refusal = checkLocalRequest(this.gateway.config, req);
    if (refusal) return reply(res, jsonError(403, ErrorCode.TransportError, `Forbidden: ${refusal}`));
    if (path === '/healthz' && req.method === 'GET') return reply(res, { status: 200, body: { status: 'ok' } });
    if (path === '/readyz' && req.method === 'GET') {
      const status = this.gateway.status();
      return reply(res, { status: status.ready ? 200 : 503, body: status });
    }
    if (path === '/.well-known/oauth-protected-resource' || path === '/.well-known/oauth-protected-resource/mcp') return this.protectedResource(req, res);
    if (path === '/metrics' && this.metrics) return void serveMetrics(this.gateway, this.metrics, req, res).catch(() => res.destroy());
    if (path.startsWith('/admin/')) return void this.admin.handle(req, res, path);
    if ((path === '/console' || path.startsWith('/console/')) && req.method === 'GET') return void serveConsole(path, res);
    const sse = (path === '/sse' && req.method === 'GET') || (path === '/messages' && req.method === 'POST');
    if (path !== '/mcp' && !sse) return reply(res, { status: 404, body: { error: `not found: ${path}` } });
    void this.serveMcp(req, res, path).catch((err: Error) => {
      this.gateway.log.error({ err }, 'HTTP request failed');
      if (!res.headersSent) reply(res, jsonError(500, ErrorCode.InternalError, 'Internal error'));
      else res.destroy();
    });
  }

  /** RFC 9728 Protected Resource Metadata: how an OAuth client finds the authorization server. */
  private protectedResource(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') return reply(res, { status: 405, headers: { allow: 'GET' } });
    if (!this.gateway.oauth) return reply(res, { status: 404, body: { error: 'this gateway takes sluice tokens, not OAuth (no auth.oauth in its config)' } });
    reply(res, { status: 200, body: this.gateway.oauth.metadata(), headers: { 'cache-control': 'max-age=300' } });
  }

  /** The MCP paths: who is calling first, then Streamable HTTP or the legacy HTTP+SSE transport. */
  private async serveMcp(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const who = await authenticate(this.gateway, req.headers.authorization);
    if (!who.ok) {
      this.gateway.authFailures.note(req.socket.remoteAddress ?? '', path, who);
      const challenge = challengeFor(this.gateway, who);
      const headers: Record<string, string> = challenge ? { 'www-authenticate': challenge } : {};
      return reply(res, { ...jsonError(who.status, ErrorCode.TransportError, who.status === 401 ? `Unauthorized: ${who.reason}` : `Forbidden: ${who.reason}`), headers });
    }
    if (path === '/sse') return this.legacySse.open(res, who.principal, clientKey(req, who.principal));
    if (path === '/messages') return this.postMessages(req, res, who.principal);
    return this.mcp.handle(req, res, who.principal);
  }

  /** A POST of the 2024-11-05 HTTP+SSE transport: the answer goes on the client's event stream. */
  private async postMessages(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    const text = await readJsonBody(req, res, this.gateway.config.http.maxBodyBytes);
    if (text === undefined) return;
    const outcome = await this.legacySse.post(req, text, clientKey(req, principal));
    if (outcome.error) return reply(res, jsonError(outcome.status, ErrorCode.SessionNotFound, outcome.error));
    reply(res, { status: outcome.status });
  }
}
