import type { Principal } from '../identity/principal.js';
import { ErrorCode, isNotification, isResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { ALL_VERSIONS } from '../protocol/versions.js';
import type { SessionMessage, SessionRecord } from '../state/ports.js';
import { isSessionId, newSessionId } from '../state/seal.js';
import { DONE, failed, type Answer } from './answer.js';
import { dispatch } from './dispatch.js';
import type { Gateway } from './gateway.js';
import { header, type HttpRequest } from './http-request.js';
import { ClientSession, type ClientChannel } from './session.js';
import { SessionStreams, type RequestStream, type SessionStream } from './session-streams.js';

/** How often a busy session's stored record is refreshed (its expiry pushed out). */
const TOUCH_EVERY_MS = 10_000;

/** How often sessions quiet for longer than the idle timeout are looked for. */
const SWEEP_EVERY_MS = 60_000;

interface Live {
  session: ClientSession;
  owner: string;
  touchedAt: number;
}

/**
 * Legacy (initialize) sessions of the Streamable HTTP front, by their `Mcp-Session-Id`. Each is bound to the
 * client that opened it (`owner`: its token hash, else its Authorization header's hash, else its address):
 * an id presented by anyone else is "not found", exactly like an unknown one. What the session negotiated is
 * kept in the session store, so after a restart — or, with a shared store, on another replica — the same id
 * resumes where it was instead of failing with "Session not found".
 *
 * Behind a load balancer without stickiness each request may land on another replica, and the one holding
 * the client's GET stream is seldom the one an upstream spoke to. What cannot be delivered here goes over the
 * bus to the replica that can: messages for the client, answers and cancellations from it, and news that the
 * session changed or ended.
 */
export class LegacySessions {
  private readonly live = new Map<string, Live>();
  /** Their streams held here: each one's GET stream and the responses of its requests still running. */
  private readonly streams = new SessionStreams();
  private unsubscribe?: () => void;
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly gateway: Gateway) {}

  /** The HTTP front opens: hear what other replicas send about sessions, and let go of idle ones. */
  start(): void {
    const gateway = this.gateway;
    this.unsubscribe = gateway.state.bus.subscribe('sessions', (m) => void this.fromOtherReplica(m).catch((err: Error) => gateway.log.warn({ err: err.message, session: m.session, kind: m.kind }, 'message from another replica not handled')));
    this.sweeper = setInterval(() => this.sweepIdle(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  get ttlMs(): number {
    return this.gateway.config.http.sessionIdleTimeoutMs;
  }

  /** The channel that reaches a session's client: here when its stream is here, else through the replica holding it. */
  private channelFor(id: () => string): ClientChannel {
    return {
      send: (message, relatedTo) => {
        if (this.streams.send(id(), message, relatedTo)) return;
        if (!this.gateway.state.bus.shared && !isNotification(message)) this.gateway.log.warn({ session: id(), method: (message as { method?: string }).method }, 'no open stream to reach the client');
        this.publish({ session: id(), kind: 'to-client', message: message as unknown as Record<string, unknown> });
      },
      streamHere: () => this.streams.here(id()),
      remember: () => void this.remember(id()),
      elsewhere: (message) => this.publish({ session: id(), kind: 'from-client', message: message as unknown as Record<string, unknown> }),
    };
  }

  private publish(message: SessionMessage): void {
    void this.gateway.state.bus.publish('sessions', message).catch((err: Error) => this.gateway.log.warn({ err: err.message, session: message.session }, 'could not reach the other replicas'));
  }

  /** Opens a session with its initialize request; the session exists only if initialize succeeded. */
  async open(principal: Principal, owner: string, initialize: JsonRpcRequest): Promise<{ response: JsonRpcResponse | undefined; session?: ClientSession }> {
    const id = newSessionId(this.gateway.state.sealKey);
    const session = new ClientSession('http', this.channelFor(() => id), principal, false, id);
    const response = await dispatch(this.gateway, session, initialize);
    if (!response || !('result' in response)) return { response };
    this.live.set(session.id, { session, owner, touchedAt: Date.now() });
    await this.gateway.state.sessions.put(session.id, recordOf(session, owner), this.ttlMs).catch((err: Error) => this.gateway.log.warn({ err: err.message }, 'session record not stored'));
    return { response, session };
  }

  /**
   * The session a request names, or why there is none. Unknown ids, and ids used by anyone but the client that
   * opened the session, get the same "not found", so a guessed or stolen id tells an attacker nothing.
   */
  async lookup(request: HttpRequest): Promise<ClientSession | Answer> {
    const id = header(request, 'mcp-session-id');
    if (!id) return failed('refused', null, ErrorCode.TransportError, 'Bad Request: Mcp-Session-Id header is required');
    const session = await this.find(id, request.owner, request.principal);
    if (!session) return failed('not-found', null, ErrorCode.SessionNotFound, 'Session not found');
    const version = header(request, 'mcp-protocol-version');
    if (version !== undefined && version !== session.protocolVersion && !ALL_VERSIONS.includes(version)) {
      return failed('refused', null, ErrorCode.TransportError, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${ALL_VERSIONS.join(', ')})`);
    }
    return session;
  }

  /** The session `id` names, for the client `owner`; undefined for an unknown, expired or foreign id. */
  private async find(id: string, owner: string, principal: Principal): Promise<ClientSession | undefined> {
    const live = this.live.get(id);
    if (live) {
      if (live.owner !== owner) return undefined;
      live.session.lastSeen = Date.now();
      if (live.session.lastSeen - live.touchedAt > TOUCH_EVERY_MS) this.touch(live);
      return live.session;
    }
    // Not held here: a guessed or forged id is turned away before any store is asked (it costs Redis nothing).
    if (!isSessionId(id, this.gateway.state.sealKey)) return undefined;
    const record = await this.gateway.state.sessions.get(id).catch(() => undefined);
    if (!record || record.owner !== owner || record.agent !== principal.agent) return undefined;
    return this.resume(record, principal);
  }

  /** A stored session comes back: same id, negotiated revision, capabilities, log level and subscriptions; its own servers start again. */
  private async resume(record: SessionRecord, principal: Principal): Promise<ClientSession> {
    const again = this.live.get(record.id);
    if (again) return again.session; // two requests raced to resume it
    const session = new ClientSession('http', this.channelFor(() => record.id), principal, false, record.id);
    session.protocolVersion = record.protocolVersion;
    session.clientCapabilities = record.clientCapabilities;
    session.clientInfo = record.clientInfo;
    session.logLevel = record.logLevel;
    for (const uri of record.subscriptions ?? []) session.subscriptions.add(uri);
    session.initialized = true;
    this.live.set(record.id, { session, owner: record.owner, touchedAt: Date.now() });
    await this.gateway.sessions.resumeOwnServers(session);
    this.gateway.sessions.register(session);
    return session;
  }

  /** Runs a request of a session, with its POST's response held so that what belongs to the request finds it. */
  async run(session: ClientSession, request: JsonRpcRequest, stream: RequestStream): Promise<JsonRpcResponse | undefined> {
    const { requests } = this.streams.of(session.id);
    requests.set(request.id, stream);
    // A client that hangs up has cancelled its request (there is no other way on HTTP).
    stream.onClose(() => session.inflight.get(request.id)?.abort('client disconnected'));
    try {
      return await dispatch(this.gateway, session, request);
    } finally {
      requests.delete(request.id);
    }
  }

  /**
   * GET /mcp: the session's stream for what the server says unprompted opens here (`open` makes it), and this
   * replica serves its subscriptions until it closes — then the replica where the client opens the next one
   * takes them over. Undefined once open; else why not.
   */
  async listen(request: HttpRequest, open: () => SessionStream): Promise<Answer | undefined> {
    const session = await this.lookup(request);
    if (!(session instanceof ClientSession)) return session;
    const streams = this.streams.of(session.id);
    if (streams.stream && !streams.stream.closed) return failed('conflict', null, ErrorCode.TransportError, 'Conflict: this session already has an open event stream');
    const stream = open();
    streams.stream = stream;
    stream.onClose(() => {
      if (streams.stream === stream) void this.gateway.subscriptions.detachAll(session, this.gateway.catalogFor(session));
    });
    await this.gateway.subscriptions.attachAll(session, this.gateway.catalogFor(session));
    return undefined;
  }

  private touch(live: Live): void {
    live.touchedAt = Date.now();
    // Only the expiry: the value is whatever the replica that last changed the session wrote.
    void this.gateway.state.sessions.touch(live.session.id, this.ttlMs).catch(() => undefined);
  }

  /** The session changed here (log level, subscriptions): stored, and the other replicas told. */
  private async remember(id: string): Promise<void> {
    const live = this.live.get(id);
    if (!live) return;
    live.touchedAt = Date.now();
    await this.gateway.state.sessions.put(id, recordOf(live.session, live.owner), this.ttlMs).catch((err: Error) => this.gateway.log.warn({ err: err.message, session: id }, 'session record not stored'));
    this.publish({ session: id, kind: 'changed' });
  }

  private async fromOtherReplica(m: SessionMessage): Promise<void> {
    if (m.kind === 'to-client') {
      // Only the GET stream: a related request's stream is on the replica that ran the request.
      if (m.message && this.streams.here(m.session)) this.streams.send(m.session, m.message as unknown as JsonRpcMessage, undefined);
      return;
    }
    const live = this.live.get(m.session);
    if (!live) return;
    if (m.kind === 'from-client' && m.message) return placeHere(live.session, m.message);
    if (m.kind === 'changed') return this.reload(live);
    if (m.kind === 'ended') {
      this.streams.end(m.session);
      await this.release(m.session);
    }
  }

  /** Another replica changed the session: take its log level and subscriptions from the store. */
  private async reload(live: Live): Promise<void> {
    const record = await this.gateway.state.sessions.get(live.session.id);
    if (!record) return;
    live.session.logLevel = record.logLevel;
    live.session.subscriptions.clear();
    for (const uri of record.subscriptions ?? []) live.session.subscriptions.add(uri);
    await this.gateway.subscriptions.sync(live.session, this.gateway.catalogFor(live.session));
  }

  /** DELETE /mcp: the session a request names ends. */
  async end(request: HttpRequest): Promise<Answer> {
    const session = await this.lookup(request);
    if (!(session instanceof ClientSession)) return session;
    await this.endSession(session.id);
    return DONE;
  }

  /** Ends a session: its streams here, the session here, in the store, on every other replica, and everything it held. */
  private async endSession(id: string): Promise<void> {
    this.streams.end(id);
    const live = this.live.get(id);
    this.live.delete(id);
    await this.gateway.state.sessions.delete(id).catch(() => undefined);
    this.publish({ session: id, kind: 'ended' });
    if (live) await this.gateway.sessions.close(live.session);
  }

  /** This replica lets go of a session; its record (and label, grants) stay for whichever replica serves it next. */
  private async release(id: string): Promise<void> {
    const live = this.live.get(id);
    this.live.delete(id);
    if (live) await this.gateway.sessions.close(live.session, 'release');
  }

  /**
   * Sessions quiet here for longer than the idle timeout, unless they still have a stream open here. One whose
   * record is gone too has been idle everywhere and ends; one whose record another replica kept fresh is only
   * let go here.
   */
  private sweepIdle(): void {
    const limit = Date.now() - this.ttlMs;
    for (const [id, live] of this.live) {
      if (this.streams.busy(id) || live.session.lastSeen >= limit) continue;
      void this.gateway.state.sessions.get(id).then(
        (record) => (record ? this.release(id) : this.endSession(id)),
        () => this.release(id),
      );
    }
  }

  /** Lets go of every live session (shutdown); their records stay, so clients can resume after a restart. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    this.streams.closeAll();
    this.unsubscribe?.();
    for (const live of this.live.values()) this.touch(live);
    this.live.clear();
  }
}

/** A client message another replica received for a session held here: an answer to our request, or a cancellation. */
function placeHere(session: ClientSession, message: Record<string, unknown>): void {
  const m = message as unknown as JsonRpcMessage;
  if (isResponse(m) && (typeof m.id === 'string' || typeof m.id === 'number')) {
    const error = 'error' in m ? m.error : undefined;
    session.settle(m.id, 'result' in m ? m.result : undefined, error);
    return;
  }
  if (isNotification(m) && m.method === 'notifications/cancelled') {
    const id = m.params?.requestId;
    if (typeof id === 'string' || typeof id === 'number') session.inflight.get(id)?.abort(typeof m.params?.reason === 'string' ? m.params.reason : 'cancelled by the client');
  }
}

function recordOf(session: ClientSession, owner: string): SessionRecord {
  const p = session.principal!;
  return {
    id: session.id,
    owner,
    agent: p.agent,
    role: p.role,
    via: p.via,
    tokenHash: p.tokenHash,
    transport: 'http',
    protocolVersion: session.protocolVersion ?? '',
    clientCapabilities: session.clientCapabilities,
    clientInfo: session.clientInfo,
    logLevel: session.logLevel,
    subscriptions: [...session.subscriptions],
  };
}
