import type { Principal } from '../identity/principal.js';
import { checkEnvelope, parseJson } from '../protocol/envelope.js';
import { ErrorCode, errorMessage, isNotification, isRequest, isResponse, RpcError, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { claimedVersion, isModernVersion, ModernError, readEnvelope } from '../protocol/modern.js';
import { allowsBatches, MAX_BATCH, MODERN_VERSION } from '../protocol/versions.js';
import { dispatch } from './dispatch.js';
import type { Gateway } from './gateway.js';
import { ClientSession, type ClientChannel, type TransportKind } from './session.js';

export type Reply = JsonRpcResponse | JsonRpcResponse[] | undefined;

/** A connection-oriented client (a stdio pipe, a WebSocket): its one session, and what to do with each frame. */
export interface Connection {
  session: ClientSession;
  /** Handles one frame of text; resolves with what to write back, if anything. */
  receive(text: string): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * The one way in for every transport: size and JSON checks, the JSON-RPC envelope, batches (2025-03-26 only),
 * and routing — a message that claims the stateless revision in its `_meta` gets a throw-away session of its
 * own, everything else the connection's session — before the dispatcher sees anything. Transports only move
 * bytes and speak their own protocol (HTTP statuses and headers, SSE, WebSocket frames).
 */
export class FrontDoor {
  /**
   * The throw-away sessions of stateless requests still running on each connection: a cancellation sent on
   * the connection must reach them, and closing the connection must end them (a listen stream included).
   */
  private readonly running = new WeakMap<ClientSession, Set<ClientSession>>();

  constructor(private readonly gateway: Gateway) {}

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
    return { session, receive: (text) => this.frame(session, text), close };
  }

  /** One frame of a connection: a message or a batch. */
  async frame(session: ClientSession, text: string): Promise<Reply> {
    const max = this.gateway.config.http.maxBodyBytes;
    const size = Buffer.byteLength(text);
    if (size > max) return errorMessage(null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: message of ${size} bytes exceeds the limit of ${max} bytes` });
    const parsed = parseJson(text);
    if (!parsed.ok) return parsed.error;
    return Array.isArray(parsed.value) ? this.batch(session, parsed.value) : this.message(session, parsed.value);
  }

  /** One parsed message for a session: envelope checked, stateless claims routed to a session of their own. */
  async message(session: ClientSession, value: unknown): Promise<JsonRpcResponse | undefined> {
    const checked = checkEnvelope(value);
    if (!checked.ok) return checked.error;
    const message: JsonRpcMessage = checked.message;
    const running = this.running.get(session);
    if (running && isNotification(message) && message.method === 'notifications/cancelled') cancelIn(running, message.params?.requestId, message.params?.reason);
    if (!isResponse(message) && claimedVersion(message) !== undefined) {
      if (!running || !isRequest(message)) return this.stateless(session.transport, session.channel, session.principal, message);
      // Kept while it runs, so the connection can cancel it or end it.
      const made = statelessSession(session.transport, session.channel, session.principal, message);
      if (made instanceof RpcError) return errorMessage(message.id, made.toObject());
      running.add(made);
      try {
        return await dispatch(this.gateway, made, message);
      } finally {
        running.delete(made);
      }
    }
    return dispatch(this.gateway, session, message);
  }

  /** A message that claims the stateless revision: served by a session made for it alone, never stored. */
  async stateless(kind: TransportKind, channel: ClientChannel, principal: Principal | undefined, message: JsonRpcRequest | JsonRpcNotification): Promise<JsonRpcResponse | undefined> {
    const session = statelessSession(kind, channel, principal, message);
    if (!('id' in message)) return undefined;
    if (session instanceof RpcError) return errorMessage(message.id, session.toObject());
    return dispatch(this.gateway, session, message);
  }

  /** A checked message for a session the caller already holds (an HTTP stateless request's own session). */
  serve(session: ClientSession, message: JsonRpcMessage): Promise<JsonRpcResponse | undefined> {
    return dispatch(this.gateway, session, message);
  }

  /** A batch: allowed by 2025-03-26 only, 1 to MAX_BATCH entries, each answered on its own. */
  async batch(session: ClientSession, values: unknown[]): Promise<Reply> {
    const problem = batchProblem(session.protocolVersion, values.length);
    if (problem) return errorMessage(null, { code: ErrorCode.InvalidRequest, message: problem });
    const answers = await Promise.all(values.map((v) => this.message(session, v)));
    const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);
    return responses.length > 0 ? responses : undefined;
  }
}

/** Why a batch of `size` is not allowed for a session speaking `version`, or undefined when it is. */
export function batchProblem(version: string | undefined, size: number): string | undefined {
  if (size === 0) return 'Invalid Request: empty batch';
  if (!allowsBatches(version)) return `Invalid Request: batches are not allowed by protocol revision ${version ?? '(not initialized)'}; only 2025-03-26 has them`;
  if (size > MAX_BATCH) return `Invalid Request: a batch may hold at most ${MAX_BATCH} messages, this one has ${size}`;
  return undefined;
}

/**
 * For a message that claims the stateless revision in its `_meta`: a throw-away session carrying that request's
 * identity and capabilities (never stored, never reused), or the error that says why the claim is unusable.
 */
export function statelessSession(kind: TransportKind, channel: ClientChannel, principal: Principal | undefined, message: JsonRpcRequest | JsonRpcNotification): ClientSession | RpcError {
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

/** Aborts the request `id` wherever it runs among these sessions. */
function cancelIn(sessions: Iterable<ClientSession>, id: unknown, reason: unknown): void {
  if (typeof id !== 'string' && typeof id !== 'number') return;
  for (const s of sessions) s.inflight.get(id)?.abort(typeof reason === 'string' ? reason : 'cancelled by the client');
}

