import { EventEmitter } from 'node:events';
import { lifecycle } from '../lifecycle.js';
import { printable } from '../policy/printable.js';
import { labelHolder } from './holder.js';
import type { ApprovalQueue } from '../approvals/queue.js';
import type { AuditLog } from '../audit/log.js';
import type { GatewayConfig, ServerConfig } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { DecisionEvent } from '../policy/decision.js';
import type { Security } from '../policy/security.js';
import type { JsonRpcNotification, Params } from '../protocol/jsonrpc.js';
import type { StateStores } from '../state/ports.js';
import { Upstream } from '../upstream/upstream.js';
import { DefinitionGuard, type DefinitionEvent, type OfferedServer } from '../definitions/guard.js';
import { SLUICE_VERSION } from '../version.js';
import { AuthFailures } from './auth-failures.js';
import { Catalog } from './catalog.js';
import { definitionDecision } from './definition-decision.js';
import { FanOut } from './fan-out.js';
import { ParkedRelay } from './parked-relay.js';
import type { OAuthResource } from '../identity/oauth-resource.js';
import type { UpstreamTokens } from '../identity/upstream-tokens.js';
import { upstreamBearer } from './upstream-auth.js';
import { ParkedCalls } from './input-required.js';
import type { ClientSession } from './session.js';
import { Sessions } from './sessions.js';
import { Subscriptions } from './subscriptions.js';

export type { CallRecord } from './calls.js';
export type { Listener } from './fan-out.js';

/** Everything a gateway is made of, built by the composition root (create.ts) and handed in. */
export interface GatewayParts {
  /** What this gateway's decisions carry on the process-wide `lifecycle.decision` channel. */
  id: string;
  config: GatewayConfig;
  log: Logger;
  security: Security;
  approvals: ApprovalQueue;
  state: StateStores;
  audit?: AuditLog;
  /** The OAuth resource server, when `auth.oauth` is configured. */
  oauth?: OAuthResource;
  /** Tokens sluice obtains for upstreams with `auth` (client credentials, token exchange). */
  upstreamTokens: UpstreamTokens;
}

/** How long a list waits for the upstreams' first connection attempt at startup. */
const FIRST_LIST_WAIT_MS = 10_000;

/** Capabilities capped to what a shared upstream may ask of "its client": never roots (see docs/config.md). */
const SHARED_CLIENT_CAPABILITIES: Params = { sampling: {}, elicitation: {} };

/**
 * The gateway: its upstream connections and the merged catalog over them, with one room per job beside it —
 * sessions and their own processes (sessions.ts), what upstreams send on their own (fan-out.ts), resource
 * subscriptions (subscriptions.ts), parked stateless calls (input-required.ts). Everything it consults that
 * has a backend (state, audit, policy) is built by the composition root and handed in.
 */
export class Gateway {
  readonly serverInfo = { name: 'sluice', version: SLUICE_VERSION };
  readonly id: string;
  readonly config: GatewayConfig;
  readonly log: Logger;
  readonly security: Security;
  readonly approvals: ApprovalQueue;
  readonly state: StateStores;
  readonly audit?: AuditLog;
  readonly oauth?: OAuthResource;
  private readonly upstreamTokens: UpstreamTokens;
  readonly upstreams: Upstream[];
  readonly sessions: Sessions;
  readonly subscriptions: Subscriptions;
  readonly fanOut: FanOut;
  readonly parked: ParkedCalls;
  /** Retries of stateless calls parked on another replica go there. */
  readonly parkedRelay: ParkedRelay;
  /** Refused logins from the front doors, recorded and coalesced per source. */
  readonly authFailures: AuthFailures;
  /** `status`: upstreams, the catalog or the sessions changed (the console listens). Decisions: `onDecision`. */
  readonly events = new EventEmitter<{ status: [] }>();
  catalog: Catalog;
  /** Pins every definition upstreams offer and decides what clients may see (quarantine, approval). */
  readonly definitions: DefinitionGuard;
  /** Reviews run one after another: two at once would both see, and record, the same change. */
  private reviews: Promise<void> = Promise.resolve();
  private reviewRetry?: NodeJS.Timeout;
  private stopBus?: () => void;
  private rebuildTimer?: NodeJS.Timeout;
  private started?: Promise<void>;
  private startedDone = false;
  /** Requests held by firstStart: not in flight yet, but a shutdown lets them finish like the calls that are. */
  waitingForStart = 0;
  private signatures = { tools: '', prompts: '', resources: '' };

  constructor(parts: GatewayParts) {
    this.id = parts.id;
    this.config = parts.config;
    this.log = parts.log;
    this.security = parts.security;
    this.approvals = parts.approvals;
    this.state = parts.state;
    this.audit = parts.audit;
    this.oauth = parts.oauth;
    this.upstreamTokens = parts.upstreamTokens;
    this.definitions = new DefinitionGuard(parts.state.pins);
    this.parked = new ParkedCalls(parts.state.sealKey, parts.state.bus.replicaId);
    this.parkedRelay = new ParkedRelay(this.parked, parts.state.bus, this.log);
    this.subscriptions = new Subscriptions(this.log);
    this.authFailures = new AuthFailures(parts.security.recorder);
    this.sessions = new Sessions({
      config: this.config,
      log: this.log,
      createUpstream: (config, capabilities, owner) => this.createUpstream(config, capabilities, owner),
      onChange: () => this.events.emit('status'),
      onClose: (session, how) => this.forget(session, how),
      review: (session) => this.reviewSession(session),
      guard: this.definitions,
    });
    this.fanOut = new FanOut({
      log: this.log,
      sessions: this.sessions,
      subscriptions: this.subscriptions,
      sharedUpstreams: () => this.upstreams,
      relayContext: (session, upstream) => ({
        security: this.security,
        principal: session.principal,
        holder: labelHolder(this.security, session),
        transport: session.transport,
        server: this.catalogFor(session).configOf(upstream),
      }),
      dropped: (method, known, upstream) => this.dropped('upstream', method, known, upstream),
    });
    this.upstreams = this.config.servers.filter((s) => s.mode === 'shared').map((s) => this.createUpstream(s, SHARED_CLIENT_CAPABILITIES, undefined));
    this.catalog = new Catalog([], this.config.separator, this.definitions);
  }

  /** Connects every upstream in parallel; resolves when each has succeeded or failed once. */
  start(): Promise<void> {
    this.started ??= this.startOnce().finally(() => (this.startedDone = true));
    return this.started;
  }

  /**
   * Requests wait for the upstreams' first connection attempt — up to 10 s, then they are answered with what
   * is there and `list_changed` follows — so a client that lists or calls once at startup finds the servers,
   * while initialize and server/discover are answered at once (see NO_WAIT in dispatch.ts).
   */
  async firstStart(): Promise<void> {
    if (!this.started || !this.starting) return;
    let timer: NodeJS.Timeout | undefined;
    this.waitingForStart++;
    try {
      await Promise.race([this.started.catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, FIRST_LIST_WAIT_MS)))]);
    } finally {
      clearTimeout(timer);
      this.waitingForStart--;
    }
  }

  /** The upstreams' first connection attempt is still running (requests other than negotiation wait for it). */
  get starting(): boolean {
    return this.started !== undefined && !this.startedDone;
  }

  private async startOnce(): Promise<void> {
    const inherited = await this.audit?.start().catch((err: Error) => (this.log.error({ err: err.message }, 'could not sign the audit head at start'), 0));
    if (inherited) this.log.warn({ records: inherited }, 'the audit log had records after its last signed head (a previous process stopped before signing them, or, on a shared log, another replica had not signed them yet); signed now');
    await this.definitions.load().catch((err: Error) => this.log.error({ err: err.message }, 'could not load the definition pins; definitions stay held back until they can be reviewed'));
    // Another replica reviewed a change or an operator decided one: reload the pins and show what they say.
    this.stopBus = this.state.bus.subscribe('pins', () =>
      void this.definitions.load().then(
        () => this.showPins(),
        (err: Error) => this.log.error({ err: err.message }, 'could not reload the definition pins'),
      ),
    );
    await Promise.all(this.upstreams.map((u) => u.start()));
    await this.rebuild();
    this.sessions.start();
  }

  async stop(): Promise<void> {
    clearTimeout(this.rebuildTimer);
    clearTimeout(this.reviewRetry);
    this.stopBus?.();
    this.parkedRelay.stop();
    this.authFailures.stop();
    await this.sessions.stop();
    await Promise.all(this.upstreams.map((u) => u.close()));
    await this.audit?.close();
    await this.state.close();
  }

  private createUpstream(config: ServerConfig, capabilities: Params, owner: ClientSession | undefined): Upstream {
    const upstream: Upstream = new Upstream(config, {
      logger: this.log,
      clientCapabilities: capabilities,
      reconnect: owner === undefined,
      bearer: upstreamBearer(config, owner, this.upstreamTokens, this.oauth),
      onRequest: (req): Promise<Params> => this.fanOut.onRequest(upstream, req, owner),
    });
    upstream.on('change', () => (owner ? void this.reviewSession(owner) : this.scheduleRebuild()));
    upstream.on('notification', (n: JsonRpcNotification) => this.fanOut.onNotification(upstream, n));
    return upstream;
  }

  /**
   * What a closing session held: this process's upstream subscriptions for it, and — when it ends rather than
   * being let go — its label, its approvals and grants.
   */
  private async forget(session: ClientSession, how: 'end' | 'release'): Promise<void> {
    await this.subscriptions.detachAll(session, this.catalogFor(session));
    if (how === 'release') return;
    await this.security.labels.forget(session.id).catch(() => undefined);
    await this.approvals.endSession(session.id).catch(() => undefined);
  }

  /** The upstreams a session reaches: the shared ones and its own, in config order. */
  upstreamsFor(session: ClientSession): Upstream[] {
    return this.sessions.upstreamsFor(session, this.upstreams);
  }

  /** The catalog a session sees: the shared one, or — with per-session servers — its own merge. */
  catalogFor(session: ClientSession): Catalog {
    return this.sessions.catalogFor(session, this.catalog, this.upstreams);
  }

  // ---- catalog changes ------------------------------------------------------------------------------------

  /** Coalesces bursts (several upstreams reconnecting) into one rebuild, well within a second. */
  private scheduleRebuild(): void {
    if (this.rebuildTimer) return;
    this.rebuildTimer = setTimeout(() => {
      this.rebuildTimer = undefined;
      void this.rebuild();
    }, 20);
  }

  /** Reviews what the shared upstreams offer now, then merges what may be shown into a new catalog. */
  async rebuild(): Promise<void> {
    await this.review(this.upstreams);
    const catalog = new Catalog(this.upstreams, this.config.separator, this.definitions);
    for (const c of catalog.conflicts) if (!this.catalog.conflicts.includes(c)) this.log.error({ conflict: c }, 'name conflict');
    this.catalog = catalog;
    const next = {
      tools: JSON.stringify(catalog.tools),
      prompts: JSON.stringify(catalog.prompts),
      resources: JSON.stringify([catalog.resources, catalog.resourceTemplates]),
    };
    const changed = (['tools', 'prompts', 'resources'] as const).filter((k) => next[k] !== this.signatures[k]);
    this.signatures = next;
    for (const s of this.sessions.all.values()) s.catalog = undefined;
    for (const kind of changed) this.fanOut.broadcastListChanged(kind);
    this.events.emit('status');
  }

  /** A session's own servers came up or changed: their definitions are reviewed, then its catalog rebuilt. */
  private async reviewSession(session: ClientSession): Promise<void> {
    await this.review(this.upstreamsFor(session));
    this.sessions.catalogChanged(session);
  }

  /**
   * Pins and scans what the ready upstreams offer (definitions/guard.ts) and records each first sight and change
   * in the audit chain before anything new is shown. A pin store that cannot answer holds new and changed
   * definitions back (fail closed) and the review is tried again.
   */
  private review(upstreams: readonly Upstream[]): Promise<void> {
    const run = async () => {
      const offered = upstreams.filter((u) => u.state === 'ready').map(offeredOf);
      let events: DefinitionEvent[];
      try {
        events = await this.definitions.review(offered, this.config.servers.map((s) => s.name));
      } catch (err) {
        this.log.error({ err: (err as Error).message }, 'could not review definitions; new and changed ones stay held back, retrying in 5 s');
        clearTimeout(this.reviewRetry);
        this.reviewRetry = setTimeout(() => void this.rebuild(), 5_000);
        this.reviewRetry.unref();
        return;
      }
      if (events.length === 0) return;
      await Promise.allSettled(events.map((e) => this.recordDefinition(e)));
      for (const server of new Set(events.map((e) => e.server))) void this.state.bus.publish('pins', { server }).catch(() => undefined);
    };
    this.reviews = this.reviews.then(run, run);
    return this.reviews;
  }

  /** An operator decided a definition: every catalog here is rebuilt, and the other replicas are told. */
  async definitionsChanged(server: string): Promise<void> {
    await this.showPins();
    await this.state.bus.publish('pins', { server }).catch((err: Error) => this.log.warn({ err: err.message }, 'could not tell the other replicas about a definition decision'));
  }

  /** The pins changed: every catalog — the shared one, and each session's own — shows what they say now. */
  private async showPins(): Promise<void> {
    await this.rebuild();
    for (const session of this.sessions.all.values()) if (session.ownUpstreams.length > 0) this.sessions.catalogChanged(session);
  }

  /** One audit record per definition seen first, changed, approved or rejected. */
  async recordDefinition(e: DefinitionEvent): Promise<void> {
    if (e.outcome === 'quarantined') this.log.warn({ upstream: e.server, kind: e.kind, name: e.name, reason: e.reason }, 'definition quarantined');
    await this.security.recorder.record(definitionDecision(e));
  }

  /** Every decision this gateway records, from the process-wide `lifecycle.decision` channel; returns the unsubscribe. */
  onDecision(listener: (event: DecisionEvent) => void): () => void {
    // The recorder (audit/recorder.ts) publishes the policy's DecisionEvent; lifecycle.ts cannot name its type.
    return lifecycle.decision.subscribe((e) => void (e.gateway === this.id && listener(e.decision as DecisionEvent)));
  }

  /** A message the method table does not carry (or does not know): dropped, logged, counted (per upstream too). */
  dropped(from: 'client' | 'upstream', method: string, known: boolean, upstream?: Upstream): void {
    if (upstream) upstream.dropped++;
    this.log.debug({ from, method: printable(method, 100), upstream: upstream?.name }, 'message dropped: the method table does not carry it');
    if (lifecycle.dropped.active) lifecycle.dropped.publish({ from, method: known ? method : 'unknown', server: upstream?.name });
  }

  /**
   * Per-upstream status for /readyz, which anyone who reaches the port may read: why an upstream is down is one
   * word (`reason`); the error text, which may carry what the server wrote, is the operator's (operator.ts).
   * `starting` names the upstreams whose first connection attempt still runs.
   */
  status(): { ready: boolean; starting: string[]; upstreams: Params[]; conflicts: string[] } {
    const upstreams = this.upstreams.map((u) => ({
      name: u.name,
      state: u.state,
      transport: u.config.transport,
      protocolVersion: u.protocolVersion,
      tools: u.lists.tools.length,
      resources: u.lists.resources.length,
      prompts: u.lists.prompts.length,
      heldBack: this.catalog.heldOf(u.name),
      ...(u.lastFailure ? { reason: u.lastFailure } : {}),
      ...(u.nextRetryAt ? { retryInMs: Math.max(0, u.nextRetryAt - Date.now()) } : {}),
    }));
    return {
      ready: this.upstreams.every((u) => u.state === 'ready'),
      starting: this.upstreams.filter((u) => u.starting).map((u) => u.name),
      upstreams: [...upstreams, ...this.sessions.status()],
      conflicts: this.catalog.conflicts,
    };
  }
}

/** What an upstream offers, as the definition guard reviews it. */
function offeredOf(u: Upstream): OfferedServer {
  return { server: u.name, policy: u.config.definitions, ...u.lists, instructions: u.instructions };
}
