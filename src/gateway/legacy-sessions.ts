import type { Principal } from '../identity/principal.js';
import { SluiceError } from '../protocol/errors.js';
import { isNotification, isResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from '../protocol/jsonrpc.js';
import type { SessionMessage, SessionRecord } from '../state/ports.js';
import { isSessionId, newSessionId } from '../state/seal.js';
import { dispatch } from './dispatch.js';
import type { Gateway } from './gateway.js';
import { ClientSession, type ClientChannel } from './session.js';

/** How often a busy session's stored record is refreshed (its expiry pushed out). */
const TOUCH_EVERY_MS = 10_000;

interface Live {
  session: ClientSession;
  owner: string;
  touchedAt: number;
}

/** What the HTTP front does for a session's streams. */
export interface SessionStreams {
  /** Sends on the related request's stream or the session's GET stream here; false when neither is here. */
  send(id: string, message: JsonRpcMessage, relatedTo: RequestId | undefined): boolean;
  /** Whether this process holds the session's GET stream. */
  streamHere(id: string): boolean;
  /** The session ended: its streams here close. */
  endStreams(id: string): void;
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
  private readonly unsubscribe: () => void;

  constructor(
    private readonly gateway: Gateway,
    private readonly streams: SessionStreams,
  ) {
    this.unsubscribe = gateway.state.bus.subscribe('sessions', (m) => void this.fromOtherReplica(m).catch((err: Error) => gateway.log.warn({ err: err.message, session: m.session, kind: m.kind }, 'message from another replica not handled')));
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
      streamHere: () => this.streams.streamHere(id()),
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

  /** The session `id` names, for the client `owner`; SESSION_NOT_FOUND for an unknown, expired or foreign id. */
  async find(id: string, owner: string, principal: Principal): Promise<ClientSession> {
    const live = this.live.get(id);
    if (live) {
      if (live.owner !== owner) throw notFound();
      live.session.lastSeen = Date.now();
      if (live.session.lastSeen - live.touchedAt > TOUCH_EVERY_MS) this.touch(live);
      return live.session;
    }
    // Not held here: a guessed or forged id is turned away before any store is asked (it costs Redis nothing).
    if (!isSessionId(id, this.gateway.state.sealKey)) throw notFound();
    const record = await this.gateway.state.sessions.get(id).catch(() => undefined);
    if (!record || record.owner !== owner || record.agent !== principal.agent) throw notFound();
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

  /** The session's GET stream opened here: this replica now serves its subscriptions. */
  async streamOpened(session: ClientSession): Promise<void> {
    await this.gateway.subscriptions.attachAll(session, this.gateway.catalogFor(session));
  }

  /** Its GET stream closed here: the replica where the client opens the next one takes the subscriptions over. */
  async streamClosed(session: ClientSession): Promise<void> {
    await this.gateway.subscriptions.detachAll(session, this.gateway.catalogFor(session));
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
      if (m.message && this.streams.streamHere(m.session)) this.streams.send(m.session, m.message as unknown as JsonRpcMessage, undefined);
      return;
    }
    const live = this.live.get(m.session);
    if (!live) return;
    if (m.kind === 'from-client' && m.message) return placeHere(live.session, m.message);
    if (m.kind === 'changed') return this.reload(live);
    if (m.kind === 'ended') {
      this.streams.endStreams(m.session);
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

  /** Ends a session (DELETE): here, in the store, on every other replica, and everything it held. */
  async end(id: string): Promise<void> {
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
   * Sessions quiet here for longer than the idle timeout, unless `busy` says they still have a stream open.
   * One whose record is gone too has been idle everywhere and ends; one whose record another replica kept
   * fresh is only let go here.
   */
  sweepIdle(busy: (id: string) => boolean): void {
    const limit = Date.now() - this.ttlMs;
    for (const [id, live] of this.live) {
      if (busy(id) || live.session.lastSeen >= limit) continue;
      void this.gateway.state.sessions.get(id).then(
        (record) => (record ? this.release(id) : this.end(id)),
        () => this.release(id),
      );
    }
  }

  /** Lets go of every live session (shutdown); their records stay, so clients can resume after a restart. */
  async closeAll(): Promise<void> {
    this.unsubscribe();
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
    if (typeof id === 'string' || typeof id === 'number') session.inflight.get(id)?.abort(String(m.params?.reason ?? 'cancelled by the client'));
  }
}

function notFound(): SluiceError {
  return new SluiceError('SESSION_NOT_FOUND', 'Session not found');
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
