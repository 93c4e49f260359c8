import type { Logger } from '../log.js';
import { SluiceError } from '../protocol/errors.js';
import { ErrorCode, notification, RpcError, type JsonRpcNotification, type JsonRpcRequest, type Params, type RequestId } from '../protocol/jsonrpc.js';
import { META } from '../protocol/modern.js';
import type { Refusal } from '../policy/decision.js';
import { UPSTREAM_NOTIFICATIONS, UPSTREAM_REQUESTS, type MessagePolicy } from '../policy/methods.js';
import { printable } from '../policy/printable.js';
import { answerToUpstream, contentFromUpstream, OPEN_DESTINATION, relayRecord, type RelayContext, type RelayOutcome } from '../policy/relay.js';
import { deny } from '../policy/checked-request.js';
import { pausedRefusal } from '../policy/steps.js';
import type { Upstream } from '../upstream/upstream.js';
import type { CallRecord } from './calls.js';
import type { ClientChannel, ClientSession } from './session.js';
import type { Sessions } from './sessions.js';
import type { Subscriptions } from './subscriptions.js';

/** A stateless client's `subscriptions/listen` stream. */
export interface Listener {
  /** The listen request's own session: its role's filters apply to what the stream carries. */
  session: ClientSession;
  channel: ClientChannel;
  id: RequestId;
  filter: { tools: boolean; prompts: boolean; resources: boolean; uris: Set<string> };
}

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The client capability each request an upstream may send its client needs (by the upstream's method name). */
const NEEDS_CAPABILITY = new Map([
  ['sampling/createMessage', 'sampling'],
  ['elicitation/create', 'elicitation'],
  ['roots/list', 'roots'],
]);

export interface FanOutDeps {
  log: Logger;
  sessions: Sessions;
  subscriptions: Subscriptions;
  sharedUpstreams(): readonly Upstream[];
  /** Who a session is, and which server is at the other end, for the relay checks (policy/relay.ts). */
  relayContext(session: ClientSession, upstream: Upstream): RelayContext;
  /** A message the method table does not carry: dropped, and counted. */
  dropped(method: string, known: boolean, upstream: Upstream): void;
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
  mapProgressToken(record: CallRecord): { token: string; release: () => void } {
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

  /** What an upstream sends on its own, carried as the method table says (policy/methods.ts). */
  onNotification(upstream: Upstream, n: JsonRpcNotification): void {
    const policy = UPSTREAM_NOTIFICATIONS.get(n.method);
    if (!policy || policy.handling === 'dropped') return this.deps.dropped(n.method, policy !== undefined, upstream);
    const params = n.params ?? {};
    switch (n.method) {
      case 'notifications/progress': {
        const target = this.progress.get(String(params.progressToken));
        if (target?.progressToken !== undefined) this.deliver(policy, target.session, upstream, notification(n.method, { ...params, progressToken: target.progressToken }), target);
        return;
      }
      case 'notifications/resources/updated': {
        const uri = String(params.uri);
        // Stateless listeners hold their subscription through a session too, but hear it on their listen stream below.
        for (const s of this.deps.subscriptions.of(uri)) if (!s.stateless) this.deliver(policy, s, upstream, n);
        for (const l of this.listeners) if (l.filter.uris.has(uri)) this.deliver(policy, l.session, upstream, this.listenerNotification(l, n.method, params), undefined, l);
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
        for (const [s, call] of this.logAudience(upstream)) {
          if (s.logLevel !== undefined && level >= LOG_LEVELS.indexOf(s.logLevel)) this.deliver(policy, s, upstream, message, call);
        }
        return;
      }
      default:
        this.deps.log.debug({ upstream: upstream.name, method: n.method }, 'upstream notification handled where it arrived');
    }
  }

  /**
   * Content from an upstream on its way to one session: its filters and its label first (policy/relay.ts),
   * then the client. What belongs to a call waits its turn on that call, so the call's result never overtakes it.
   */
  private deliver(policy: MessagePolicy, session: ClientSession, upstream: Upstream, message: JsonRpcNotification, call?: CallRecord, listener?: Listener): void {
    const run = async () => {
      // The progress token is the client's own (put back by us), not the upstream's content.
      const { progressToken, ...content } = message.params ?? {};
      const outcome = await contentFromUpstream(this.deps.relayContext(session, upstream), content, policy.steps);
      if (!outcome.ok) {
        this.deps.log.debug({ upstream: upstream.name, session: session.id, method: message.method, step: outcome.refusal.step, reason: outcome.refusal.reason }, 'upstream notification withheld');
        return;
      }
      const out = notification(message.method, progressToken === undefined ? outcome.value : { ...outcome.value, progressToken });
      if (listener) listener.channel.send(out, listener.id);
      else session.channel.send(out, call?.requestId);
    };
    const done = (call?.delivering ?? Promise.resolve()).then(run).catch((err: Error) => this.deps.log.warn({ upstream: upstream.name, err: err.message }, 'upstream notification not delivered'));
    if (call) call.delivering = done;
  }

  /**
   * Who hears a log line from an upstream. Logs written during a call often hold that call's data, so while
   * calls from exactly one session are in flight only that session hears them; with none in flight the line
   * is about the server itself and goes to every session that asked for logs; with calls from several
   * sessions in flight we cannot tell whose it is and nobody gets it.
   */
  private logAudience(upstream: Upstream): Iterable<[ClientSession, CallRecord | undefined]> {
    const records = [...(this.calls.get(upstream) ?? [])];
    const calling = new Set(records.map((r) => r.session));
    if (calling.size === 1) return [[records[0].session, records.length === 1 ? records[0] : undefined]];
    if (calling.size > 1) {
      this.deps.log.debug({ upstream: upstream.name }, 'log line withheld: calls from several sessions in flight');
      return [];
    }
    return this.deps.sessions.sessionsOf(upstream, this.deps.sharedUpstreams()).map((s) => [s, undefined]);
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
    const policy = UPSTREAM_REQUESTS.get(req.method);
    const needed = NEEDS_CAPABILITY.get(req.method);
    if (!policy || policy.handling !== 'relayed' || !needed) {
      this.deps.dropped(req.method, policy !== undefined, upstream);
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${printable(req.method, 100)}`);
    }
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
    const session = target.session;
    if (!session.clientCapabilities[needed]) throw new RpcError(ErrorCode.InvalidRequest, `the client did not declare the "${needed}" capability`);
    // A stateless client cannot receive requests, except as questions inside an input_required result.
    if (!target.parked && session.stateless) throw new SluiceError('NO_CLIENT', `a stateless (2026-07-28) client can answer "${req.method}" only during tools/call, prompts/get or resources/read`);
    const relay = this.deps.relayContext(session, upstream);
    const method = req.method as 'sampling/createMessage' | 'elicitation/create' | 'roots/list';
    const refuse = async (refusal: Refusal, what: string): Promise<never> => {
      await relay.security.recorder.record(relayRecord(relay, method, what, 'deny', refusal), { droppable: true }).catch(() => undefined);
      throw new RpcError(ErrorCode.Forbidden, `sluice refused ${what} at the ${refusal.step} step: ${refusal.reason}`);
    };
    const asked = await contentToClient(relay, req.params ?? {}, policy);
    if (!asked.ok) return refuse(asked.refusal, `the request ${req.method}`);
    const answer = await this.ask(upstream, req, target, asked.value);
    const refusal = await answerToUpstream(relay, answer, target.destination ?? OPEN_DESTINATION);
    if (refusal) return refuse(refusal, `the client's answer to ${req.method}`);
    await relay.security.recorder.record(relayRecord(relay, method, req.method, 'allow', undefined, asked.value));
    return answer;
  }

  /** Puts a checked request to the client: as a question of its parked call (stateless), or as a request on its session. */
  private async ask(upstream: Upstream, req: JsonRpcRequest, target: CallRecord, params: Params): Promise<Params> {
    if (target.parked) return target.parked.ask(req.method, params);
    const open = this.toClient.get(upstream) ?? this.toClient.set(upstream, new Map()).get(upstream)!;
    const controller = new AbortController();
    open.set(req.id, controller);
    try {
      return await target.session.request(req.method, params, target.requestId, controller.signal);
    } finally {
      open.delete(req.id);
    }
  }
}

/**
 * A request from an upstream on its way to the client, by the steps its table row names: pause, then its
 * content through the session's filters and label (roots/list carries none).
 */
async function contentToClient(relay: RelayContext, params: Params, policy: MessagePolicy): Promise<RelayOutcome> {
  if (!relay.security.role(relay.principal)) return { ok: false, refusal: deny('authenticate', 'no identity with a role is attached to this session') };
  const paused = policy.steps.includes('pause') ? await pausedRefusal(relay.security.switches) : undefined;
  if (paused) return { ok: false, refusal: paused };
  return policy.steps.includes('content-filter') ? contentFromUpstream(relay, params, policy.steps) : { ok: true, value: params };
}
