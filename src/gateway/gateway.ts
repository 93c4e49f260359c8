import { EventEmitter } from 'node:events';
import type { GatewayConfig, ServerConfig } from '../config/schema.js';
import type { Logger } from '../log.js';
import { ErrorCode, notification, RpcError, type JsonRpcNotification, type JsonRpcRequest, type Params, type RequestId } from '../protocol/jsonrpc.js';
import { SluiceError } from '../protocol/errors.js';
import { META } from '../protocol/modern.js';
import { Upstream } from '../upstream/upstream.js';
import { SLUICE_VERSION } from '../version.js';
import { Catalog } from './catalog.js';
import type { ApprovalQueue } from '../approvals/queue.js';
import type { AuditLog } from '../audit/log.js';
import type { DecisionEvent } from '../policy/decision.js';
import type { Security } from '../policy/security.js';
import type { StateStores } from '../state/ports.js';
import type { CallRecord } from './calls.js';
import { AuthFailures } from './auth-failures.js';
import { ParkedCalls } from './input-required.js';
import type { ClientChannel, ClientSession } from './session.js';

export type { CallRecord } from './calls.js';

/** Everything a gateway is made of, built by the composition root (create.ts) and handed in. */
export interface GatewayParts {
  config: GatewayConfig;
  log: Logger;
  security: Security;
  approvals: ApprovalQueue;
  state: StateStores;
  audit?: AuditLog;
}

/** A stateless client's `subscriptions/listen` stream. */
export interface Listener {
  channel: ClientChannel;
  id: RequestId;
  filter: { tools: boolean; prompts: boolean; resources: boolean; uris: Set<string> };
}

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** What an upstream may ask of its client, and the client capability each needs (by the upstream's method name). */
const CLIENT_REQUESTS = new Map([
  ['sampling/createMessage', 'sampling'],
  ['elicitation/create', 'elicitation'],
  ['roots/list', 'roots'],
]);

/** Capabilities capped to what a shared upstream may ask of "its client": never roots (see README). */
const SHARED_CLIENT_CAPABILITIES: Params = { sampling: {}, elicitation: {} };

/**
 * The gateway's state: upstream connections, the merged catalog, connected sessions, and the fan-out of
 * everything upstreams send on their own (list changes, resource updates, progress, logs, requests).
 */
export class Gateway {
  readonly serverInfo = { name: 'sluice', version: SLUICE_VERSION };
  readonly upstreams: Upstream[];
  readonly sessions = new Map<string, ClientSession>();
  readonly listeners = new Set<Listener>();
  readonly parked: ParkedCalls;
  readonly config: GatewayConfig;
  readonly log: Logger;
  readonly security: Security;
  readonly approvals: ApprovalQueue;
  readonly state: StateStores;
  readonly audit?: AuditLog;
  /** `status`: upstreams, the catalog or the sessions changed (the console listens); `decision`: every decision made. */
  readonly events = new EventEmitter<{ status: []; decision: [DecisionEvent] }>();
  /** Refused logins from the front doors, recorded and coalesced per source. */
  readonly authFailures: AuthFailures;
  catalog: Catalog;
  private readonly perSessionConfigs: ServerConfig[];
  private readonly calls = new Map<Upstream, Set<CallRecord>>();
  private readonly progress = new Map<string, { session: ClientSession; token: string | number; requestId: RequestId }>();
  private readonly subscribers = new Map<string, Set<ClientSession>>();
  private nextProgress = 1;
  private rebuildTimer?: NodeJS.Timeout;
  private idleSweeper?: NodeJS.Timeout;
  private signatures = { tools: '', prompts: '', resources: '' };

  constructor(parts: GatewayParts) {
    const { config } = parts;
    this.config = config;
    this.log = parts.log;
    this.security = parts.security;
    this.approvals = parts.approvals;
    this.state = parts.state;
    this.audit = parts.audit;
    this.parked = new ParkedCalls(parts.state.sealKey);
    this.authFailures = new AuthFailures(parts.security.recorder);
    this.upstreams = config.servers.filter((s) => s.mode === 'shared').map((s) => this.createUpstream(s, SHARED_CLIENT_CAPABILITIES, undefined));
    this.perSessionConfigs = config.servers.filter((s) => s.mode === 'per-session');
    this.catalog = new Catalog([], config.separator);
  }

  /** Connects every upstream in parallel; resolves when each has succeeded or failed once. */
  async start(): Promise<void> {
    await Promise.all(this.upstreams.map((u) => u.start()));
    this.rebuild();
    if (this.perSessionConfigs.length > 0) {
      const every = Math.max(1000, Math.min(30_000, ...this.perSessionConfigs.map((c) => c.idleTimeoutMs / 2)));
      this.idleSweeper = setInterval(() => this.sweepIdleProcesses(), every);
      this.idleSweeper.unref();
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.rebuildTimer);
    this.authFailures.stop();
    clearInterval(this.idleSweeper);
    for (const s of [...this.sessions.values()]) await this.closeSession(s);
    await Promise.all(this.upstreams.map((u) => u.close()));
    await this.audit?.close();
    await this.state.close();
  }

  private createUpstream(config: ServerConfig, capabilities: Params, owner: ClientSession | undefined): Upstream {
    const upstream: Upstream = new Upstream(config, {
      logger: this.log,
      clientCapabilities: capabilities,
      reconnect: owner === undefined,
      onRequest: (req): Promise<Params> => this.onUpstreamRequest(upstream, req, owner),
    });
    upstream.on('change', () => (owner ? this.sessionCatalogChanged(owner) : this.scheduleRebuild()));
    upstream.on('notification', (n: JsonRpcNotification) => this.onUpstreamNotification(upstream, n));
    return upstream;
  }

  // ---- sessions ------------------------------------------------------------------------------------------

  register(session: ClientSession): void {
    if (this.sessions.has(session.id)) return;
    this.sessions.set(session.id, session);
    this.events.emit('status');
  }

  /** Starts this session's own server processes (mode: per-session), mirroring the client's capabilities. */
  async startPerSessionServers(session: ClientSession, configs: readonly ServerConfig[] = this.perSessionConfigs): Promise<void> {
    const started: Upstream[] = [];
    for (const config of configs) {
      const running = [...this.sessions.values()].filter((s) => s.ownUpstreams.some((u) => u.config === config)).length;
      if (running >= config.maxSessions) {
        this.log.warn({ upstream: config.name, max: config.maxSessions }, 'per-session server cap reached; not started for this session');
        continue;
      }
      const upstream = this.createUpstream(config, session.clientCapabilities, session);
      session.ownUpstreams.push(upstream);
      started.push(upstream);
    }
    await Promise.all(started.map((u) => u.start()));
    session.catalog = undefined;
  }

  /**
   * Stops per-session processes whose session has been quiet for the server's `idleTimeoutSeconds`; the
   * session's next request starts them again (see `wake`). Keeps a cap's worth of idle clients from holding
   * every process slot.
   */
  private sweepIdleProcesses(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      const idle = session.ownUpstreams.filter((u) => now - session.lastSeen > u.config.idleTimeoutMs);
      if (idle.length === 0) continue;
      for (const u of idle) {
        session.dormant.push(u.config);
        session.ownUpstreams.splice(session.ownUpstreams.indexOf(u), 1);
        void u.close();
      }
      this.sessionCatalogChanged(session);
    }
  }

  /** Restarts a session's per-session processes that were stopped while it was idle. */
  async wake(session: ClientSession): Promise<void> {
    const configs = session.dormant.splice(0);
    await this.startPerSessionServers(session, configs);
  }

  async closeSession(session: ClientSession): Promise<void> {
    session.close();
    this.sessions.delete(session.id);
    this.events.emit('status');
    await this.security.labels.forget(session.id).catch(() => undefined);
    await this.approvals.endSession(session.id).catch(() => undefined);
    for (const uri of session.subscriptions) await this.unsubscribe(session, uri);
    await Promise.all(session.ownUpstreams.map((u) => u.close()));
  }

  /** The catalog a session sees: the shared one, or — with per-session servers — its own merge. */
  catalogFor(session: ClientSession): Catalog {
    if (session.ownUpstreams.length === 0) return this.catalog;
    session.catalog ??= new Catalog(this.orderedFor(session), this.config.separator);
    return session.catalog;
  }

  /** Shared and per-session upstreams in config order, so precedence follows the file. */
  private orderedFor(session: ClientSession): Upstream[] {
    const all = [...this.upstreams, ...session.ownUpstreams];
    const order = new Map(this.config.servers.map((s, i) => [s.name, i]));
    return all.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  }

  upstreamsFor(session: ClientSession): Upstream[] {
    return session.ownUpstreams.length === 0 ? this.upstreams : this.orderedFor(session);
  }

  private sessionCatalogChanged(session: ClientSession): void {
    session.catalog = undefined;
    for (const method of ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']) {
      if (session.initialized) session.channel.send(notification(method));
    }
  }

  // ---- catalog changes ------------------------------------------------------------------------------------

  /** Coalesces bursts (several upstreams reconnecting) into one rebuild, well within a second. */
  private scheduleRebuild(): void {
    if (this.rebuildTimer) return;
    this.rebuildTimer = setTimeout(() => {
      this.rebuildTimer = undefined;
      this.rebuild();
    }, 20);
  }

  rebuild(): void {
    const catalog = new Catalog(this.upstreams, this.config.separator);
    for (const c of catalog.conflicts) if (!this.catalog.conflicts.includes(c)) this.log.error({ conflict: c }, 'name conflict');
    this.catalog = catalog;
    const next = {
      tools: JSON.stringify(catalog.tools),
      prompts: JSON.stringify(catalog.prompts),
      resources: JSON.stringify([catalog.resources, catalog.resourceTemplates]),
    };
    const changed = (['tools', 'prompts', 'resources'] as const).filter((k) => next[k] !== this.signatures[k]);
    this.signatures = next;
    for (const s of this.sessions.values()) s.catalog = undefined;
    for (const kind of changed) this.broadcastListChanged(kind);
    this.events.emit('status');
  }

  private broadcastListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    const method = `notifications/${kind}/list_changed`;
    for (const s of this.sessions.values()) if (s.initialized) s.channel.send(notification(method));
    for (const l of this.listeners) if (l.filter[kind]) l.channel.send(this.listenerNotification(l, method), l.id);
  }

  listenerNotification(l: Listener, method: string, params: Params = {}): JsonRpcNotification {
    return notification(method, { ...params, _meta: { [META.subscriptionId]: l.id } });
  }

  // ---- calls in flight ----------------------------------------------------------------------------------

  /** Notes a forwarded call so that the upstream's progress and requests can find their way back. */
  trackCall(upstream: Upstream, record: CallRecord): () => void {
    let set = this.calls.get(upstream);
    if (!set) this.calls.set(upstream, (set = new Set()));
    set.add(record);
    return () => set.delete(record);
  }

  /** Swaps the client's progress token for one of ours, unique across every client of a shared upstream. */
  mapProgressToken(session: ClientSession, token: string | number, requestId: RequestId): { token: string; release(): void } {
    const ours = `sluice-${this.nextProgress++}`;
    this.progress.set(ours, { session, token, requestId });
    return { token: ours, release: () => this.progress.delete(ours) };
  }

  // ---- what upstreams send on their own -----------------------------------------------------------------

  private onUpstreamNotification(upstream: Upstream, n: JsonRpcNotification): void {
    const params = n.params ?? {};
    switch (n.method) {
      case 'notifications/progress': {
        const target = this.progress.get(String(params.progressToken));
        if (target) target.session.channel.send(notification(n.method, { ...params, progressToken: target.token }), target.requestId);
        return;
      }
      case 'notifications/resources/updated': {
        const uri = String(params.uri);
        // Stateless listeners hold their subscription through a session too, but hear it on their listen stream below.
        for (const s of this.subscribers.get(uri) ?? []) if (!s.stateless) s.channel.send(n);
        for (const l of this.listeners) if (l.filter.uris.has(uri)) l.channel.send(this.listenerNotification(l, n.method, params), l.id);
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
        this.log.debug({ upstream: upstream.name, method: n.method }, 'upstream notification not relayed');
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
      this.log.debug({ upstream: upstream.name }, 'log line withheld: calls from several sessions in flight');
      return [];
    }
    return this.sessionsOf(upstream);
  }

  /**
   * Sets a session's log level, and tells each of its upstreams the most verbose level any of their sessions
   * asked for — one client asking for less must not silence another.
   */
  async setLogLevel(session: ClientSession, level: string): Promise<void> {
    session.logLevel = level;
    await Promise.all(
      this.upstreamsFor(session)
        .filter((u) => u.state === 'ready' && u.capabilities.logging)
        .map((u) => {
          const levels = [...this.sessionsOf(u)].map((s) => LOG_LEVELS.indexOf(s.logLevel ?? 'emergency'));
          const wanted = LOG_LEVELS[Math.min(...levels, LOG_LEVELS.indexOf(level))];
          return u.request('logging/setLevel', { level: wanted }).catch(() => undefined);
        }),
    );
  }

  private sessionsOf(upstream: Upstream): Iterable<ClientSession> {
    if (this.upstreams.includes(upstream)) return this.sessions.values();
    return [...this.sessions.values()].filter((s) => s.ownUpstreams.includes(upstream));
  }

  /**
   * A request from an upstream to its client (sampling, elicitation, roots). It goes to the client whose call
   * caused it. A shared upstream over stdio cannot say which call that is; when calls from more than one
   * session are in flight we refuse rather than guess — asking the wrong user is worse than failing. Such
   * servers belong in `mode: per-session`.
   */
  private async onUpstreamRequest(upstream: Upstream, req: JsonRpcRequest, owner: ClientSession | undefined): Promise<Params> {
    let target: CallRecord | undefined;
    const records = [...(this.calls.get(upstream) ?? [])];
    if (owner) target = records.find((r) => r.session === owner) ?? { session: owner, requestId: undefined as unknown as RequestId };
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
    return session.request(req.method, req.params, target.requestId);
  }

  // ---- subscriptions ------------------------------------------------------------------------------------

  async subscribe(session: ClientSession, uri: string): Promise<void> {
    const owner = this.catalogFor(session).ownerOfUri(uri);
    if (!owner) throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    let set = this.subscribers.get(uri);
    const first = !set || set.size === 0;
    if (!set) this.subscribers.set(uri, (set = new Set()));
    // Registered before asking the upstream, so an update it sends with its answer is not lost.
    set.add(session);
    session.subscriptions.add(uri);
    if (!first) return; // the upstream sees one subscription per URI however many clients hold it
    try {
      await owner.request('resources/subscribe', { uri });
    } catch (err) {
      set.delete(session);
      session.subscriptions.delete(uri);
      if (set.size === 0) this.subscribers.delete(uri);
      throw err;
    }
  }

  async unsubscribe(session: ClientSession, uri: string): Promise<void> {
    const set = this.subscribers.get(uri);
    session.subscriptions.delete(uri);
    if (!set?.delete(session) || set.size > 0) return;
    this.subscribers.delete(uri);
    await this.catalogFor(session).ownerOfUri(uri)?.request('resources/unsubscribe', { uri }).catch(() => undefined);
  }

  /** Per-upstream status for /readyz. */
  status(): { ready: boolean; upstreams: Params[]; conflicts: string[] } {
    const upstreams = this.upstreams.map((u) => ({
      name: u.name,
      state: u.state,
      transport: u.config.transport,
      protocolVersion: u.protocolVersion,
      tools: u.lists.tools.length,
      resources: u.lists.resources.length,
      prompts: u.lists.prompts.length,
      ...(u.lastError ? { lastError: u.lastError } : {}),
      ...(u.nextRetryAt ? { retryInMs: Math.max(0, u.nextRetryAt - Date.now()) } : {}),
    }));
    const perSession = this.perSessionConfigs.map((c) => ({ name: c.name, mode: 'per-session', transport: c.transport, sessions: [...this.sessions.values()].filter((s) => s.ownUpstreams.some((u) => u.config === c)).length }));
    return { ready: this.upstreams.every((u) => u.state === 'ready'), upstreams: [...upstreams, ...perSession], conflicts: this.catalog.conflicts };
  }
}
