import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { batchProblem, statelessSession, type FrontDoor } from '../gateway/front-door.js';
import type { Gateway } from '../gateway/gateway.js';
import { LegacySessions } from '../gateway/legacy-sessions.js';
import type { ClientSession } from '../gateway/session.js';
import { checkEnvelope, parseJson } from '../protocol/envelope.js';
import { isLocal } from '../protocol/errors.js';
import {
  ErrorCode,
  errorMessage,
  isRequest,
  isResponse,
  RpcError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { claimedVersion, isModernVersion, MODERN_METHODS, ModernError } from '../protocol/modern.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import type { Principal } from '../identity/principal.js';
import { hashToken } from '../identity/tokens.js';
import { AdminApi } from './admin.js';
import { serveConsole } from './console-files.js';
import { authenticate, challengeFor } from './authenticate.js';
import { serveMetrics } from './metrics-endpoint.js';
import type { GatewayMetrics } from '../telemetry/metrics.js';
import type { Activity } from '../telemetry/activity.js';
import { checkLocalRequest } from './guards.js';
import { LegacySse } from './legacy-sse.js';
import { EventStream, Exchange } from './sse.js';

/** HTTP-side state of one legacy session: its GET stream, and its open POST exchanges. */
interface Streams {
  stream?: EventStream;
  exchanges: Map<RequestId, Exchange>;
}

/** How much of an oversized body is read and thrown away before the 413, so the client sees the answer. */
const DISCARD_CAP = 64 * 1024 * 1024;

type Reply = { status: number; body?: JsonRpcMessage | JsonRpcMessage[]; headers?: Record<string, string> };

function jsonError(status: number, code: number, message: string, id: RequestId | null = null, data?: unknown): Reply {
  return { status, body: errorMessage(id, data === undefined ? { code, message } : { code, message, data }) };
}

/**
 * The Streamable HTTP front door at /mcp, plus /healthz and /readyz. Our own node:http code rather than the
 * SDK's server transport: it is the hot path, and a thin front with plain JSON answers costs a fraction of
 * the SDK's per-request conversions (see ARCHITECTURE.md). Everything it receives goes to the one dispatcher.
 */
export class HttpFront {
  readonly server: Server;
  private readonly streams = new Map<string, Streams>();
  private readonly legacy: LegacySessions;
  /** The 2024-11-05 HTTP+SSE transport at /sse and /messages. */
  private readonly legacySse: LegacySse;
  private readonly sweeper: NodeJS.Timeout;
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
    this.legacy = new LegacySessions(gateway, {
      send: (id, m, relatedTo) => this.sendToSession(id, m, relatedTo),
      streamHere: (id) => this.streamHere(id),
      endStreams: (id) => {
        this.streams.get(id)?.stream?.close();
        this.streams.delete(id);
      },
    });
    this.legacySse = new LegacySse(front, gateway.state, gateway.log);
    this.server = createServer((req, res) => this.route(req, res));
    this.server.keepAliveTimeout = 65_000;
    this.sweeper = setInterval(() => this.sweepIdle(), 60_000);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const s of this.streams.values()) s.stream?.close();
    this.streams.clear();
    this.legacySse.close();
    await this.legacy.closeAll();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const refusal = checkLocalRequest(this.gateway.config, req);
    if (refusal) return this.reply(res, jsonError(403, ErrorCode.TransportError, `Forbidden: ${refusal}`));
    if (path === '/healthz' && req.method === 'GET') return this.reply(res, { status: 200, body: { status: 'ok' } as never });
    if (path === '/readyz' && req.method === 'GET') {
      const status = this.gateway.status();
      return this.reply(res, { status: status.ready ? 200 : 503, body: status as never });
    }
    if (path === '/.well-known/oauth-protected-resource' || path === '/.well-known/oauth-protected-resource/mcp') return this.protectedResource(req, res);
    if (path === '/metrics' && this.metrics) return void serveMetrics(this.gateway, this.metrics, req, res).catch(() => res.destroy());
    if (path.startsWith('/admin/')) return void this.admin.handle(req, res, path);
    if ((path === '/console' || path.startsWith('/console/')) && req.method === 'GET') return void serveConsole(path, res);
    const sse = (path === '/sse' && req.method === 'GET') || (path === '/messages' && req.method === 'POST');
    if (path !== '/mcp' && !sse) return this.reply(res, { status: 404, body: { error: `not found: ${path}` } as never });
    void this.mcp(req, res, path).catch((err: Error) => {
      this.gateway.log.error({ err }, 'HTTP request failed');
      if (!res.headersSent) this.reply(res, jsonError(500, ErrorCode.InternalError, 'Internal error'));
      else res.destroy();
    });
  }

  /** RFC 9728 Protected Resource Metadata: how an OAuth client finds the authorization server. */
  private protectedResource(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') return this.reply(res, { status: 405, headers: { allow: 'GET' } });
    if (!this.gateway.oauth) return this.reply(res, { status: 404, body: { error: 'this gateway takes sluice tokens, not OAuth (no auth.oauth in its config)' } as never });
    this.reply(res, { status: 200, body: this.gateway.oauth.metadata() as never, headers: { 'cache-control': 'max-age=300' } });
  }

  private async mcp(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const who = await authenticate(this.gateway, req.headers.authorization);
    if (!who.ok) {
      this.gateway.authFailures.note(req.socket.remoteAddress ?? '', path, who);
      const challenge = challengeFor(this.gateway, who);
      const headers: Record<string, string> = challenge ? { 'www-authenticate': challenge } : {};
      return this.reply(res, { ...jsonError(who.status, ErrorCode.TransportError, who.status === 401 ? `Unauthorized: ${who.reason}` : `Forbidden: ${who.reason}`), headers });
    }
    const principal = who.principal;
    if (path === '/sse') return this.legacySse.open(res, principal, clientKey(req, principal));
    if (path === '/messages') return this.postMessages(req, res, principal);
    if (req.method === 'POST') return this.post(req, res, principal);
    if (req.method === 'GET') return this.get(req, res, principal);
    if (req.method === 'DELETE') return void this.delete(req, res, principal);
    this.reply(res, { ...jsonError(405, ErrorCode.TransportError, `Method not allowed: ${req.method}`), headers: { allow: 'GET, POST, DELETE' } });
  }

  private reply(res: ServerResponse, r: Reply): void {
    if (res.headersSent) return void res.end();
    if (r.body === undefined) {
      res.writeHead(r.status, r.headers);
      return void res.end();
    }
    const text = JSON.stringify(r.body);
    res.writeHead(r.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...r.headers });
    res.end(text);
  }

  /**
   * Reads the body up to the configured limit; answers 413 itself and returns undefined when it is larger. The
   * 413 goes out once the client has finished sending (what is over the limit is read and thrown away, up to
   * DISCARD_CAP): closing the socket while a body still arrives makes clients see EPIPE instead of the answer.
   */
  private readBody(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
    const max = this.gateway.config.http.maxBodyBytes;
    const tooLarge = () => this.reply(res, { ...jsonError(413, ErrorCode.InvalidRequest, `Invalid Request: body exceeds the limit of ${max} bytes`), headers: { connection: 'close' } });
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = Number(req.headers['content-length'] ?? 0) > max;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (!over && size > max) over = true;
        if (!over) return void chunks.push(chunk);
        chunks.length = 0;
        if (size > max + DISCARD_CAP) {
          // Past the cap the client is not merely oversized: answer now and stop reading.
          req.removeAllListeners('data');
          tooLarge();
          req.destroy();
          resolve(undefined);
        }
      });
      req.on('end', () => {
        if (!over) return resolve(Buffer.concat(chunks).toString('utf8'));
        tooLarge();
        resolve(undefined);
      });
      req.on('error', reject);
    });
  }

  /** A POST of the 2024-11-05 HTTP+SSE transport: the answer goes on the client's event stream. */
  private async postMessages(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      return this.reply(res, jsonError(415, ErrorCode.TransportError, 'Unsupported Media Type: Content-Type must be application/json'));
    }
    const text = await this.readBody(req, res);
    if (text === undefined) return;
    const outcome = await this.legacySse.post(req, text, clientKey(req, principal));
    if (outcome.error) return this.reply(res, jsonError(outcome.status, ErrorCode.SessionNotFound, outcome.error));
    this.reply(res, { status: outcome.status });
  }

  private async post(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) {
      return this.reply(res, jsonError(415, ErrorCode.TransportError, 'Unsupported Media Type: Content-Type must be application/json'));
    }
    const text = await this.readBody(req, res);
    if (text === undefined) return;
    const parsed = parseJson(text);
    if (!parsed.ok) return this.reply(res, { status: 400, body: parsed.error });
    const acceptsSse = /text\/event-stream/i.test(req.headers.accept ?? '');
    if (Array.isArray(parsed.value)) return this.postBatch(req, res, parsed.value, principal);
    const checked = checkEnvelope(parsed.value);
    if (!checked.ok) return this.reply(res, { status: 400, body: checked.error });
    const message = checked.message;

    const claim = isResponse(message) ? undefined : claimedVersion(message);
    const headerVersion = header(req, 'mcp-protocol-version');
    if (claim !== undefined) return this.postStateless(req, res, message as JsonRpcRequest, claim, acceptsSse, principal);
    if (headerVersion !== undefined && isModernVersion(headerVersion)) {
      return this.reply(res, jsonError(400, ErrorCode.InvalidParams, `Bad Request: protocol revision ${headerVersion} requires the per-request envelope key(s): _meta`, idOf(message)));
    }
    if (isRequest(message) && message.method === 'initialize') return this.postInitialize(req, res, message, acceptsSse, principal);

    const session = await this.findSession(req, res, principal, headerVersion);
    if (!session) return;
    if (!isRequest(message)) {
      await this.front.serve(session, message);
      return this.reply(res, { status: 202 });
    }
    const exchange = new Exchange(res, acceptsSse);
    await this.run(session, message, exchange);
  }

  /** Runs one request of a legacy session, with its exchange registered so related messages find it. */
  private async run(session: ClientSession, message: JsonRpcRequest, exchange: Exchange): Promise<void> {
    const { exchanges } = this.streamsOf(session.id);
    exchanges.set(message.id, exchange);
    // A client that hangs up has cancelled its request (there is no other way on HTTP).
    exchange.onClose(() => session.inflight.get(message.id)?.abort('client disconnected'));
    try {
      // Already checked above (envelope, no stateless claim): straight to the dispatcher.
      const response = await this.front.serve(session, message);
      if (response) exchange.finish(response);
    } finally {
      exchanges.delete(message.id);
    }
  }

  private streamsOf(id: string): Streams {
    let streams = this.streams.get(id);
    if (!streams) this.streams.set(id, (streams = { exchanges: new Map() }));
    return streams;
  }

  private async postInitialize(req: IncomingMessage, res: ServerResponse, message: JsonRpcRequest, acceptsSse: boolean, principal: Principal): Promise<void> {
    if (header(req, 'mcp-session-id')) {
      return this.reply(res, jsonError(400, ErrorCode.InvalidRequest, 'Invalid Request: initialize must not carry an Mcp-Session-Id; it opens a new session', message.id));
    }
    const opened = await this.legacy.open(principal, clientKey(req, principal), message);
    const exchange = new Exchange(res, acceptsSse, opened.session ? { 'mcp-session-id': opened.session.id } : {});
    if (opened.response) exchange.finish(opened.response);
  }

  /** A 2026-07-28 request: no session; the headers must agree with the body; a throw-away session serves it. */
  private async postStateless(req: IncomingMessage, res: ServerResponse, message: JsonRpcRequest, claim: string, acceptsSse: boolean, principal: Principal): Promise<void> {
    const id = idOf(message);
    const headerVersion = header(req, 'mcp-protocol-version');
    if (headerVersion !== undefined && headerVersion !== claim) {
      return this.reply(res, jsonError(400, ModernError.HeaderMismatch, `Bad Request: the MCP-Protocol-Version header (${headerVersion}) and the body (${claim}) disagree`, id));
    }
    if (isRequest(message)) {
      const method = header(req, 'mcp-method');
      if (method !== undefined && method !== message.method) {
        return this.reply(res, jsonError(400, ModernError.HeaderMismatch, `Bad Request: the Mcp-Method header (${method}) and the body (${message.method}) disagree`, id));
      }
      const nameHeader = header(req, 'mcp-name');
      const name = message.params?.[message.method === 'resources/read' ? 'uri' : 'name'];
      if (nameHeader !== undefined && typeof name === 'string' && decodeHeader(nameHeader) !== name) {
        return this.reply(res, jsonError(400, ModernError.HeaderMismatch, `Bad Request: the Mcp-Name header and the body disagree`, id));
      }
    }
    const exchange = new Exchange(res, acceptsSse);
    const session = statelessSession('http', { send: (m) => void exchange.send(m) }, principal, message);
    if (session instanceof RpcError) {
      const status = session.code === ModernError.UnsupportedProtocolVersion || session.code === ErrorCode.InvalidParams ? 400 : 200;
      return this.reply(res, jsonError(status, session.code, session.message, id, session.data));
    }
    if (!isRequest(message)) return this.reply(res, { status: 202 });
    if (!MODERN_METHODS.has(message.method)) return this.reply(res, jsonError(404, ErrorCode.MethodNotFound, `Method not found: ${message.method}`, id));
    exchange.onClose(() => session.close());
    const response = await this.front.serve(session, message);
    if (response) exchange.finish(response);
  }

  private async postBatch(req: IncomingMessage, res: ServerResponse, values: unknown[], principal: Principal): Promise<void> {
    const session = await this.findSession(req, res, principal, header(req, 'mcp-protocol-version'));
    if (!session) return;
    const problem = batchProblem(session.protocolVersion, values.length);
    if (problem) return this.reply(res, jsonError(400, ErrorCode.InvalidRequest, problem));
    const responses = await this.front.batch(session, values);
    this.reply(res, responses ? { status: 200, body: responses } : { status: 202 });
  }

  /**
   * The legacy session a request names. Unknown ids, and ids used by anyone but the client that opened the
   * session, get the same 404, so a guessed or stolen id tells an attacker nothing.
   */
  private async findSession(req: IncomingMessage, res: ServerResponse, principal: Principal, headerVersion: string | undefined): Promise<ClientSession | undefined> {
    const id = header(req, 'mcp-session-id');
    if (!id) return void this.reply(res, jsonError(400, ErrorCode.TransportError, 'Bad Request: Mcp-Session-Id header is required'));
    let session: ClientSession;
    try {
      session = await this.legacy.find(id, clientKey(req, principal), principal);
    } catch (err) {
      if (!isLocal(err, 'SESSION_NOT_FOUND')) throw err;
      return void this.reply(res, jsonError(404, ErrorCode.SessionNotFound, 'Session not found'));
    }
    if (headerVersion !== undefined && headerVersion !== session.protocolVersion && !ALL_VERSIONS.includes(headerVersion)) {
      return void this.reply(res, jsonError(400, ErrorCode.TransportError, `Bad Request: Unsupported protocol version: ${headerVersion} (supported versions: ${ALL_VERSIONS.join(', ')})`));
    }
    return session;
  }

  private async get(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    if (!/text\/event-stream/i.test(req.headers.accept ?? '')) {
      return this.reply(res, jsonError(406, ErrorCode.TransportError, 'Not Acceptable: GET /mcp needs Accept: text/event-stream'));
    }
    const session = await this.findSession(req, res, principal, header(req, 'mcp-protocol-version'));
    if (!session) return;
    const streams = this.streamsOf(session.id);
    if (streams.stream && !streams.stream.closed) return this.reply(res, jsonError(409, ErrorCode.TransportError, 'Conflict: this session already has an open event stream'));
    const stream = new EventStream(res);
    streams.stream = stream;
    res.once('close', () => {
      if (streams.stream === stream) void this.legacy.streamClosed(session);
    });
    await this.legacy.streamOpened(session);
  }

  private streamHere(id: string): boolean {
    const stream = this.streams.get(id)?.stream;
    return stream !== undefined && !stream.closed;
  }

  private async delete(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    const session = await this.findSession(req, res, principal, header(req, 'mcp-protocol-version'));
    if (!session) return;
    this.streams.get(session.id)?.stream?.close();
    this.streams.delete(session.id);
    await this.legacy.end(session.id);
    this.reply(res, { status: 200 });
  }

  /** Related messages go on their request's own stream when it can carry them, the rest on the GET stream; false: neither is here. */
  private sendToSession(id: string, message: JsonRpcMessage, relatedTo: RequestId | undefined): boolean {
    const streams = this.streams.get(id);
    const exchange = relatedTo === undefined ? undefined : streams?.exchanges.get(relatedTo);
    if (exchange?.send(message)) return true;
    if (!streams?.stream || streams.stream.closed) return false;
    streams.stream.send(message);
    return true;
  }

  private sweepIdle(): void {
    this.legacy.sweepIdle((id) => {
      const streams = this.streams.get(id);
      const busy = streams !== undefined && (streams.exchanges.size > 0 || (streams.stream !== undefined && !streams.stream.closed));
      if (!busy) this.streams.delete(id);
      return busy;
    });
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Header values that are not plain ASCII travel as `=?base64?…?=` in the stateless revision. */
function decodeHeader(value: string): string {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : value;
}

function idOf(message: JsonRpcMessage): RequestId | null {
  return 'id' in message && message.id !== undefined ? message.id : null;
}

/**
 * Who opened a session: its token (already hashed when it was checked; we never keep tokens). With
 * authentication off, whatever Authorization header the client sent, else its address. A session id presented
 * by anyone else is refused.
 */
function clientKey(req: IncomingMessage, principal: Principal): string {
  // An OAuth client refreshes its token: its sessions are bound to who it is (issuer + subject), not to one token.
  if (principal.subjectKey) return `oauth:${principal.subjectKey}`;
  if (principal.tokenHash) return `token:${principal.tokenHash}`;
  const auth = req.headers.authorization;
  return auth ? `header:${hashToken(auth)}` : `addr:${req.socket.remoteAddress ?? ''}`;
}
