import type { Principal } from '../identity/principal.js';
import { checkEnvelope, parseJson } from '../protocol/envelope.js';
import { ErrorCode, errorMessage, isNotification, isRequest, isResponse, RpcError, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from '../protocol/jsonrpc.js';
import { claimedVersion, isModernVersion, MODERN_METHODS, ModernError, readEnvelope } from '../protocol/modern.js';
import { allowsBatches, MAX_BATCH, MODERN_VERSION } from '../protocol/versions.js';
import { ACCEPTED, answered, failed, type Answer } from './answer.js';
import { dispatch } from './dispatch.js';
import type { Gateway } from './gateway.js';
import { header, type HttpPost, type HttpRequest } from './http-request.js';
import { LegacySessions } from './legacy-sessions.js';
import { ClientSession, type ClientChannel, type TransportKind } from './session.js';

/** A connection-oriented client (a stdio pipe, a WebSocket, a legacy SSE stream): its one session, and what to do with each frame. */
export interface Connection {
  session: ClientSession;
  /** Handles one frame of text; resolves with what to write back, if anything (the answer's body). */
  receive(text: string): Promise<Answer>;
  close(): Promise<void>;
}

/**
 * The one way in for every transport: size and JSON checks, the JSON-RPC envelope, batches (2025-03-26 only),
 * and routing — a message that claims the stateless revision in its `_meta` gets a throw-away session of its
 * own; everything else the connection's session, or on Streamable HTTP the session its headers name (which
 * its initialize opened) — before the dispatcher sees anything. Transports only move bytes and speak their
 * own protocol (HTTP statuses and headers, SSE, WebSocket frames).
 */
export class FrontDoor {
  /**
   * The throw-away sessions of stateless requests still running on each connection: a cancellation sent on
   * the connection must reach them, and closing the connection must end them (a listen stream included).
   */
  private readonly running = new WeakMap<ClientSession, Set<ClientSession>>();
  /** Streamable HTTP's sessions, by Mcp-Session-Id; the HTTP front starts and closes them. */
  readonly legacy: LegacySessions;

  constructor(private readonly gateway: Gateway) {
    this.legacy = new LegacySessions(gateway);
  }

  connect(kind: Exclude<TransportKind, 'http'>, channel: ClientChannel, principal: Principal): Connection {
    const session = new ClientSession(kind, channel, principal);
    this.gateway.sessions.register(session);
    const running = new Set<ClientSession>();
    this.running.set(session, running);
    const close = () => {
      for (const s of running) s.close();
      running.clear();
      return this.gateway.sessions.close(session);
    };
    return { session, receive: (text) => this.receive(text, session), close };
  }

  /** One frame of a connection (`from` its session), or the body of a Streamable HTTP POST: a message or a batch. */
  async receive(text: string, from: ClientSession | HttpPost): Promise<Answer> {
    const max = this.gateway.config.http.maxBodyBytes;
    const size = Buffer.byteLength(text);
    if (size > max) return failed('refused', null, ErrorCode.InvalidRequest, `Invalid Request: message of ${size} bytes exceeds the limit of ${max} bytes`);
    const parsed = parseJson(text);
    if (!parsed.ok) return { outcome: 'refused', body: parsed.error };
    if (Array.isArray(parsed.value)) return this.batch(from, parsed.value);
    const checked = checkEnvelope(parsed.value);
    if (!checked.ok) return { outcome: 'refused', body: checked.error };
    return from instanceof ClientSession ? answered(await this.message(from, checked.message)) : this.post(from, checked.message);
  }

  /** One checked message for a session it came in on: a stateless claim is routed to a session of its own. */
  private async message(session: ClientSession, message: JsonRpcMessage): Promise<JsonRpcResponse | undefined> {
    const running = this.running.get(session);
    if (running && isNotification(message) && message.method === 'notifications/cancelled') cancelIn(running, message.params?.requestId, message.params?.reason);
    if (isResponse(message) || claimedVersion(message) === undefined) return dispatch(this.gateway, session, message);
    if (!isRequest(message)) return undefined;
    const made = statelessSession(session.transport, session.channel, session.principal, message);
    if (made instanceof RpcError) return errorMessage(message.id, made.toObject());
    if (!running) return dispatch(this.gateway, made, message);
    // Kept while it runs, so the connection can cancel it or end it.
    running.add(made);
    try {
      return await dispatch(this.gateway, made, message);
    } finally {
      running.delete(made);
    }
  }

  /** A batch: allowed by 2025-03-26 only, 1 to MAX_BATCH entries, each answered on its own. */
  private async batch(from: ClientSession | HttpRequest, values: unknown[]): Promise<Answer> {
    const session = from instanceof ClientSession ? from : await this.legacy.lookup(from);
    if (!(session instanceof ClientSession)) return session;
    const problem = batchProblem(session.protocolVersion, values.length);
    if (problem) return failed('refused', null, ErrorCode.InvalidRequest, problem);
    const answers = await Promise.all(
      values.map(async (value) => {
        const checked = checkEnvelope(value);
        return checked.ok ? this.message(session, checked.message) : checked.error;
      }),
    );
    const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);
    return answered(responses.length > 0 ? responses : undefined);
  }

  /**
   * One message POSTed to Streamable HTTP: stateless when it claims 2026-07-28; else an initialize opens a
   * session, and every other message belongs to the session its Mcp-Session-Id names.
   */
  private async post(post: HttpPost, message: JsonRpcMessage): Promise<Answer> {
    const claim = isResponse(message) ? undefined : claimedVersion(message);
    if (claim !== undefined) return this.statelessPost(post, message as JsonRpcRequest | JsonRpcNotification, claim);
    const headerVersion = header(post, 'mcp-protocol-version');
    if (headerVersion !== undefined && isModernVersion(headerVersion)) {
      return failed('refused', idOf(message), ErrorCode.InvalidParams, `Bad Request: protocol revision ${headerVersion} requires the per-request envelope key(s): _meta`);
    }
    if (isRequest(message) && message.method === 'initialize') {
      if (header(post, 'mcp-session-id')) return failed('refused', message.id, ErrorCode.InvalidRequest, 'Invalid Request: initialize must not carry an Mcp-Session-Id; it opens a new session');
      const opened = await this.legacy.open(post.principal, post.owner, message);
      return { outcome: 'ok', body: opened.response, sessionId: opened.session?.id };
    }
    const session = await this.legacy.lookup(post);
    if (!(session instanceof ClientSession)) return session;
    if (!isRequest(message)) {
      await dispatch(this.gateway, session, message);
      return ACCEPTED;
    }
    return answered(await this.legacy.run(session, message, post.stream));
  }

  /** A 2026-07-28 POST: no session; the headers must agree with the body; a throw-away session serves it, on the POST's own response. */
  private async statelessPost(post: HttpPost, message: JsonRpcRequest | JsonRpcNotification, claim: string): Promise<Answer> {
    const id = idOf(message);
    const mismatch = headerMismatch(post, message, claim);
    if (mismatch) return failed('refused', id, ModernError.HeaderMismatch, mismatch);
    const session = statelessSession('http', { send: (m) => void post.stream.send(m) }, post.principal, message);
    // Both reasons a claim is unusable (an unknown revision, a broken envelope) are the client's: 400.
    if (session instanceof RpcError) return failed('refused', id, session.code, session.message, session.data);
    if (!isRequest(message)) return ACCEPTED;
    if (!MODERN_METHODS.has(message.method)) return failed('not-found', id, ErrorCode.MethodNotFound, `Method not found: ${message.method}`);
    post.stream.onClose(() => session.close());
    return answered(await dispatch(this.gateway, session, message));
  }
}

/** Why a batch of `size` is not allowed for a session speaking `version`, or undefined when it is. */
function batchProblem(version: string | undefined, size: number): string | undefined {
  if (size === 0) return 'Invalid Request: empty batch';
  if (!allowsBatches(version)) return `Invalid Request: batches are not allowed by protocol revision ${version ?? '(not initialized)'}; only 2025-03-26 has them`;
  if (size > MAX_BATCH) return `Invalid Request: a batch may hold at most ${MAX_BATCH} messages, this one has ${size}`;
  return undefined;
}

/**
 * For a message that claims the stateless revision in its `_meta`: a throw-away session carrying that request's
 * identity and capabilities (never stored, never reused), or the error that says why the claim is unusable.
 */
function statelessSession(kind: TransportKind, channel: ClientChannel, principal: Principal | undefined, message: JsonRpcRequest | JsonRpcNotification): ClientSession | RpcError {
  const version = claimedVersion(message) as string;
  if (!isModernVersion(version)) {
    return new RpcError(ModernError.UnsupportedProtocolVersion, `Unsupported protocol version: ${version}`, { supported: [MODERN_VERSION], requested: version });
  }
  const envelope = readEnvelope(message.params);
  if ('problem' in envelope) {
    return new RpcError(ErrorCode.InvalidParams, `Invalid _meta envelope for protocol revision ${MODERN_VERSION}: ${envelope.key}: ${envelope.problem}`, { envelope: { key: envelope.key, problem: envelope.problem } });
  }
  const session = new ClientSession(kind, channel, principal, true);
  session.protocolVersion = envelope.protocolVersion;
  session.clientCapabilities = envelope.clientCapabilities;
  session.clientInfo = envelope.clientInfo;
  session.initialized = true;
  return session;
}

/** Where a stateless POST's headers and body disagree (they must say the same, so proxies can route on headers). */
function headerMismatch(post: HttpRequest, message: JsonRpcRequest | JsonRpcNotification, claim: string): string | undefined {
  const version = header(post, 'mcp-protocol-version');
  if (version !== undefined && version !== claim) return `Bad Request: the MCP-Protocol-Version header (${version}) and the body (${claim}) disagree`;
  if (!isRequest(message)) return undefined;
  const method = header(post, 'mcp-method');
  if (method !== undefined && method !== message.method) return `Bad Request: the Mcp-Method header (${method}) and the body (${message.method}) disagree`;
  const nameHeader = header(post, 'mcp-name');
  const name = message.params?.[message.method === 'resources/read' ? 'uri' : 'name'];
  if (nameHeader !== undefined && typeof name === 'string' && decodeHeader(nameHeader) !== name) return 'Bad Request: the Mcp-Name header and the body disagree';
  return undefined;
}

/** Header values that are not plain ASCII travel as `=?base64?…?=` in the stateless revision. */
function decodeHeader(value: string): string {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : value;
}

function idOf(message: JsonRpcMessage): RequestId | null {
  return 'id' in message && message.id !== undefined ? message.id : null;
}

/** Aborts the request `id` wherever it runs among these sessions. */
function cancelIn(sessions: Iterable<ClientSession>, id: unknown, reason: unknown): void {
  if (typeof id !== 'string' && typeof id !== 'number') return;
  for (const s of sessions) s.inflight.get(id)?.abort(typeof reason === 'string' ? reason : 'cancelled by the client');
}
