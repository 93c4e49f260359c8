import { randomBytes } from 'node:crypto';
import { randomHex } from '../random.js';
import { RpcError, type JsonRpcMessage, type Params, type RequestId } from '../protocol/jsonrpc.js';
import { SluiceError } from '../protocol/errors.js';
import type { Upstream } from '../upstream/upstream.js';
import type { ServerConfig } from '../config/schema.js';
import type { Principal } from '../identity/principal.js';
import type { Catalog } from './catalog.js';

export type TransportKind = 'stdio' | 'http' | 'ws' | 'sse';

/**
 * How the gateway reaches one client. `relatedTo` names the client request a message belongs to, so
 * Streamable HTTP can put it on that request's own response stream instead of the session-wide one.
 */
export interface ClientChannel {
  send(message: JsonRpcMessage, relatedTo?: RequestId): void;
  /**
   * Whether the session's stream is held by this process. A legacy HTTP session's stream may be on another
   * replica, which then serves its subscriptions; unset (stdio, WebSocket, stateless): always here.
   */
  streamHere?(): boolean;
  /** Stores what the session changed (log level, subscriptions) where every replica finds it. */
  remember?(): void;
  /** A client message this process cannot place: another replica may be the one it is for. */
  elsewhere?(message: JsonRpcMessage): void;
}

/** Tags the ids of requests we send to clients, so an answer that reaches another replica is told apart from its own. */
const PROCESS_TAG = randomBytes(4).toString('hex');
const OUTGOING_PREFIX = `sluice-${PROCESS_TAG}-`;

interface OutgoingRequest {
  resolve(result: Params): void;
  reject(err: Error): void;
}

/**
 * One connected client: its negotiated revision and capabilities, what it subscribed to, its calls in
 * flight, and the requests we forwarded to it on an upstream's behalf. A stateless (2026-07-28) request gets
 * a short-lived session of its own that is never stored.
 */
export class ClientSession {
  /** Unguessable: 128 random bits (a legacy HTTP session's also sealed, and bound to the client that opened it: see legacy-sessions.ts). */
  readonly id: string;
  protocolVersion?: string;
  clientInfo?: Params;
  clientCapabilities: Params = {};
  initialized = false;
  /** Set by logging/setLevel; upstream log messages reach only sessions that asked for them. */
  logLevel?: string;
  readonly subscriptions = new Set<string>();
  /** Client request id → the controller that cancels its upstream call. */
  readonly inflight = new Map<RequestId, AbortController>();
  /** Per-session upstream instances (mode: per-session), owned by and closed with this session. */
  readonly ownUpstreams: Upstream[] = [];
  /** Per-session servers stopped while this session was idle; started again on its next request. */
  readonly dormant: ServerConfig[] = [];
  /** This session's merged catalog when it has per-session servers; rebuilt lazily after changes. */
  catalog?: Catalog;
  lastSeen = Date.now();
  closed = false;
  private nextOutgoingId = 1;
  private readonly outgoing = new Map<number, OutgoingRequest>();

  constructor(
    readonly transport: TransportKind,
    readonly channel: ClientChannel,
    /** Who is calling: resolved once by the transport, never changed afterwards. */
    readonly principal: Principal | undefined,
    readonly stateless = false,
    /** A legacy HTTP session's sealed id (see state/seal.ts); others get a fresh random one. */
    id?: string,
  ) {
    this.id = id ?? randomHex(16);
  }

  /** Sends a request to the client (sampling, elicitation, roots) and waits for its answer. */
  request(method: string, params: Params | undefined, relatedTo: RequestId | undefined, signal?: AbortSignal): Promise<Params> {
    if (this.closed) return Promise.reject(new SluiceError('SESSION_ENDED', 'client session has ended'));
    const id = `${OUTGOING_PREFIX}${this.nextOutgoingId++}`;
    return new Promise<Params>((resolve, reject) => {
      const numeric = this.nextOutgoingId - 1;
      const onAbort = () => {
        this.outgoing.delete(numeric);
        this.channel.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the server' } }, relatedTo);
        reject(new SluiceError('CANCELLED', 'request cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.outgoing.set(numeric, {
        resolve: (r) => (signal?.removeEventListener('abort', onAbort), resolve(r)),
        reject: (e) => (signal?.removeEventListener('abort', onAbort), reject(e)),
      });
      this.channel.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }, relatedTo);
    });
  }

  /** Delivers the client's answer to one of our requests; false if we never asked it. */
  settle(id: RequestId, result: Params | undefined, error: { code: number; message: string; data?: unknown } | undefined): boolean {
    const numeric = typeof id === 'string' && id.startsWith(OUTGOING_PREFIX) ? Number(id.slice(OUTGOING_PREFIX.length)) : NaN;
    const pending = this.outgoing.get(numeric);
    if (!pending) return false;
    this.outgoing.delete(numeric);
    if (error) pending.reject(new RpcError(error.code, error.message, error.data));
    else pending.resolve(result ?? {});
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.inflight.values()) c.abort('client session ended');
    for (const p of this.outgoing.values()) p.reject(new SluiceError('SESSION_ENDED', 'client session ended'));
    this.outgoing.clear();
  }
}
