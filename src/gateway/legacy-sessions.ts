import type { Principal } from '../identity/principal.js';
import { SluiceError } from '../protocol/errors.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { SessionRecord } from '../state/ports.js';
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

/**
 * Legacy (initialize) sessions of the Streamable HTTP front, by their `Mcp-Session-Id`. Each is bound to the
 * client that opened it (`owner`: its token hash, else its Authorization header's hash, else its address):
 * an id presented by anyone else is "not found", exactly like an unknown one. What the session negotiated is
 * kept in the session store, so after a restart — or, with a shared store, on another instance — the same id
 * resumes where it was instead of failing with "Session not found".
 */
export class LegacySessions {
  private readonly live = new Map<string, Live>();

  constructor(
    private readonly gateway: Gateway,
    /** The channel that reaches a session's client (the HTTP front's streams). */
    private readonly channelFor: (sessionId: () => string) => ClientChannel,
  ) {}

  get ttlMs(): number {
    return this.gateway.config.http.sessionIdleTimeoutMs;
  }

  /** Opens a session with its initialize request; the session exists only if initialize succeeded. */
  async open(principal: Principal, owner: string, initialize: JsonRpcRequest): Promise<{ response: JsonRpcResponse | undefined; session?: ClientSession }> {
    let id = '';
    const session = new ClientSession('http', this.channelFor(() => id), principal);
    id = session.id;
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
    const record = await this.gateway.state.sessions.get(id).catch(() => undefined);
    if (!record || record.owner !== owner || record.agent !== principal.agent) throw notFound();
    return this.resume(record, principal);
  }

  /** A stored session comes back: same id, negotiated revision, capabilities and log level; its own servers start again. */
  private async resume(record: SessionRecord, principal: Principal): Promise<ClientSession> {
    const again = this.live.get(record.id);
    if (again) return again.session; // two requests raced to resume it
    const session = new ClientSession('http', this.channelFor(() => record.id), principal, false, record.id);
    session.protocolVersion = record.protocolVersion;
    session.clientCapabilities = record.clientCapabilities;
    session.clientInfo = record.clientInfo;
    session.logLevel = record.logLevel;
    session.initialized = true;
    this.live.set(record.id, { session, owner: record.owner, touchedAt: Date.now() });
    await this.gateway.sessions.startOwnServers(session);
    this.gateway.sessions.register(session);
    return session;
  }

  private touch(live: Live): void {
    live.touchedAt = Date.now();
    void this.gateway.state.sessions.put(live.session.id, recordOf(live.session, live.owner), this.ttlMs).catch(() => undefined);
  }

  /** Ends a session (DELETE, or idle): here, in the store, and everything it held. */
  async end(id: string): Promise<void> {
    const live = this.live.get(id);
    this.live.delete(id);
    await this.gateway.state.sessions.delete(id).catch(() => undefined);
    if (live) await this.gateway.sessions.close(live.session);
  }

  /** Ends sessions quiet for longer than the idle timeout, unless `busy` says they still have a stream open. */
  sweepIdle(busy: (id: string) => boolean): void {
    const limit = Date.now() - this.ttlMs;
    for (const [id, live] of this.live) if (!busy(id) && live.session.lastSeen < limit) void this.end(id);
  }

  /** Lets go of every live session (shutdown); their records stay, so clients can resume after a restart. */
  async closeAll(): Promise<void> {
    for (const live of this.live.values()) this.touch(live);
    this.live.clear();
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
  };
}
