import type { Logger } from '../log.js';
import { SluiceError } from '../protocol/errors.js';
import { ErrorCode, notification, RpcError, type JsonRpcNotification, type JsonRpcRequest, type Params, type RequestId } from '../protocol/jsonrpc.js';
import { META } from '../protocol/modern.js';
import type { Upstream } from '../upstream/upstream.js';
import type { CallRecord } from './calls.js';
import type { ClientChannel, ClientSession } from './session.js';
import type { Sessions } from './sessions.js';
import type { Subscriptions } from './subscriptions.js';

/** A stateless client's `subscriptions/listen` stream. */
export interface Listener {
  channel: ClientChannel;
  id: RequestId;
  filter: { tools: boolean; prompts: boolean; resources: boolean; uris: Set<string> };
}

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** What an upstream may ask of its client, and the client capability each needs (by the upstream's method name). */
const CLIENT_REQUESTS = new Map([
  ['sampling/createMessage', 'sampling'],
  ['elicitation/create', 'elicitation'],
  ['roots/list', 'roots'],
]);

export interface FanOutDeps {
  log: Logger;
  sessions: Sessions;
  subscriptions: Subscriptions;
  sharedUpstreams(): readonly Upstream[];
}

/**
 * Everything upstreams send on their own, delivered to exactly the clients it is for: progress to the call
 * that asked, resource updates to subscribers, log lines to the one session whose call is running, list
 * changes to everyone, and requests (sampling, elicitation, roots) to the client whose call caused them.
 * Keeps the calls in flight and the progress tokens that make that routing possible.
 */
export class FanOut {
  readonly listeners = new Set<Listener>();
  private readonly calls = new Map<Upstream, Set<CallRecord>>();
  private readonly progress = new Map<string, CallRecord>();
  private nextProgress = 1;
  /** Requests an upstream sent to a client, still open, by the upstream's own id: its cancellation must reach the client. */
  private readonly toClient = new Map<Upstream, Map<RequestId, AbortController>>();

  constructor(private readonly deps: FanOutDeps) {}

  // ---- calls in flight ----------------------------------------------------------------------------------

  /** Notes a forwarded call so that the upstream's progress and requests can find their way back. */
  trackCall(upstream: Upstream, record: CallRecord): () => void {
    let set = this.calls.get(upstream);
    if (!set) this.calls.set(upstream, (set = new Set()));
    set.add(record);
    return () => set.delete(record);
  }

  /**
   * Swaps the client's progress token (on `record`) for one of ours, unique across every client of a shared
   * upstream. The record is kept by reference, so a resumed stateless call's progress goes to its retry.
   */
  mapProgressToken(record: CallRecord): { token: string; release(): void } {
    const ours = `sluice-${this.nextProgress++}`;
    this.progress.set(ours, record);
    return { token: ours, release: () => this.progress.delete(ours) };
  }

  // ---- list changes -------------------------------------------------------------------------------------

  broadcastListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    const method = `notifications/${kind}/list_changed`;
    for (const s of this.deps.sessions.all.values()) if (s.initialized) s.channel.send(notification(method));
    for (const l of this.listeners) if (l.filter[kind]) l.channel.send(this.listenerNotification(l, method), l.id);
  }

  private listenerNotification(l: Listener, method: string, params: Params = {}): JsonRpcNotification {
    return notification(method, { ...params, _meta: { [META.subscriptionId]: l.id } });
  }

  // ---- notifications from upstreams -----------------------------------------------------------------------

  onNotification(upstream: Upstream, n: JsonRpcNotification): void {
    const params = n.params ?? {};
    switch (n.method) {
      case 'notifications/progress': {
        const target = this.progress.get(String(params.progressToken));
        if (target?.progressToken !== undefined) target.session.channel.send(notification(n.method, { ...params, progressToken: target.progressToken }), target.requestId);
        return;
      }
      case 'notifications/resources/updated': {
        const uri = String(params.uri);
        // Stateless listeners hold their subscription through a session too, but hear it on their listen stream below.
        for (const s of this.deps.subscriptions.of(uri)) if (!s.stateless) s.channel.send(n);
        for (const l of this.listeners) if (l.filter.uris.has(uri)) l.channel.send(this.listenerNotification(l, n.method, params), l.id);
        return;
      }
      case 'notifications/cancelled': {
        // The upstream gave up on a request it sent to a client: the client is told (with our id) and stops.
        const id = params.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.toClient.get(upstream)?.get(id)?.abort(params.reason ?? 'cancelled by the server');
        return;
      }
      case 'notifications/message': {
        const level = LOG_LEVELS.indexOf(String(params.level));
        const message = params.logger === undefined ? notification(n.method, { ...params, logger: upstream.name }) : n;
        for (const s of this.logAudience(upstream)) {
          if (s.logLevel !== undefined && level >= LOG_LEVELS.indexOf(s.logLevel)) s.channel.send(message);
        }
        return;
      }
      default:
        this.deps.log.debug({ upstream: upstream.name, method: n.method }, 'upstream notification not relayed');
    }
  }

  /**
   * Who hears a log line from an upstream. Logs written during a call often hold that call's data, so while
   * calls from exactly one session are in flight only that session hears them; with none in flight the line
   * is about the server itself and goes to every session that asked for logs; with calls from several
   * sessions in flight we cannot tell whose it is and nobody gets it.
   */
  private logAudience(upstream: Upstream): Iterable<ClientSession> {
    const calling = new Set([...(this.calls.get(upstream) ?? [])].map((r) => r.session));
    if (calling.size === 1) return calling;
    if (calling.size > 1) {
      this.deps.log.debug({ upstream: upstream.name }, 'log line withheld: calls from several sessions in flight');
      return [];
    }
    return this.deps.sessions.sessionsOf(upstream, this.deps.sharedUpstreams());
  }

  /**
   * Sets a session's log level, and tells each of its upstreams the most verbose level any of their sessions
   * asked for — one client asking for less must not silence another.
   */
  async setLogLevel(session: ClientSession, level: string): Promise<void> {
    session.logLevel = level;
    session.channel.remember?.();
    const shared = this.deps.sharedUpstreams();
    await Promise.all(
      this.deps.sessions
        .upstreamsFor(session, shared)
        .filter((u) => u.state === 'ready' && u.capabilities.logging)
        .map((u) => {
          const levels = this.deps.sessions.sessionsOf(u, shared).map((s) => LOG_LEVELS.indexOf(s.logLevel ?? 'emergency'));
          const wanted = LOG_LEVELS[Math.min(...levels, LOG_LEVELS.indexOf(level))];
          return u.request('logging/setLevel', { level: wanted }).catch(() => undefined);
        }),
    );
  }

  // ---- requests from upstreams to their client ----------------------------------------------------------

  /**
   * A request from an upstream to its client (sampling, elicitation, roots). It goes to the client whose call
   * caused it. A shared upstream over stdio cannot say which call that is; when calls from more than one
   * session are in flight we refuse rather than guess — asking the wrong user is worse than failing. Such
   * servers belong in `mode: per-session`.
   */
  async onRequest(upstream: Upstream, req: JsonRpcRequest, owner: ClientSession | undefined): Promise<Params> {
    let target: CallRecord | undefined;
    const records = [...(this.calls.get(upstream) ?? [])];
    if (owner) target = records.find((r) => r.session === owner) ?? { session: owner, requestId: undefined };
    else {
      const sessions = new Set(records.map((r) => r.session));
      if (sessions.size === 1) target = records[0];
      else if (sessions.size > 1) {
        throw new SluiceError('NO_CLIENT', `sluice cannot tell which of ${sessions.size} clients "${req.method}" is for; run server "${upstream.name}" with mode: per-session`);
      }
    }
    if (!target) throw new SluiceError('NO_CLIENT', `no client call is in flight for "${req.method}" to answer`);
    const needed = CLIENT_REQUESTS.get(req.method);
    if (!needed) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${req.method}`);
    const session = target.session;
    if (!session.clientCapabilities[needed]) throw new RpcError(ErrorCode.InvalidRequest, `the client did not declare the "${needed}" capability`);
    // A stateless client cannot receive requests: the question goes back to it inside an input_required result.
    if (target.parked) return target.parked.ask(req.method, req.params);
    if (session.stateless) throw new SluiceError('NO_CLIENT', `a stateless (2026-07-28) client can answer "${req.method}" only during tools/call, prompts/get or resources/read`);
    const open = this.toClient.get(upstream) ?? this.toClient.set(upstream, new Map()).get(upstream)!;
    const controller = new AbortController();
    open.set(req.id, controller);
    try {
      return await session.request(req.method, req.params, target.requestId, controller.signal);
    } finally {
      open.delete(req.id);
    }
  }
}
