import type { GatewayConfig, ServerConfig } from '../config/schema.js';
import type { Logger } from '../log.js';
import { isLocal, SluiceError } from '../protocol/errors.js';
import { notification, type Params } from '../protocol/jsonrpc.js';
import type { DefinitionGuard } from '../definitions/guard.js';
import type { Upstream } from '../upstream/upstream.js';
import { Catalog } from './catalog.js';
import type { ClientSession } from './session.js';

export interface SessionsDeps {
  config: GatewayConfig;
  log: Logger;
  /** Makes an upstream owned by `owner` (a per-session process), started by the caller. */
  createUpstream(config: ServerConfig, capabilities: Params, owner: ClientSession): Upstream;
  /** The sessions changed (the console listens). */
  onChange(): void;
  /** A session is closing: everything elsewhere that holds it lets go (labels, approvals, subscriptions). */
  onClose(session: ClientSession, how: 'end' | 'release'): Promise<void>;
  /** Reviews the definitions of a session's servers (before its client sees them). */
  review(session: ClientSession): Promise<void>;
  guard: DefinitionGuard;
}

/**
 * The connected sessions and the server processes that belong to them (mode: per-session): started with the
 * session and its client's own capabilities, stopped when it idles out or ends, started again on its next
 * request. Also the catalog a session sees when it has servers of its own.
 */
export class Sessions {
  readonly all = new Map<string, ClientSession>();
  private readonly perSession: ServerConfig[];
  /**
   * Which sessions hold a process slot of each per-session server. A slot is taken before the process starts,
   * so a burst of sessions initialising at once cannot run more processes than `maxSessions`.
   */
  private readonly slots = new Map<ServerConfig, Set<ClientSession>>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly deps: SessionsDeps) {
    this.perSession = deps.config.servers.filter((s) => s.mode === 'per-session');
  }

  get perSessionConfigs(): readonly ServerConfig[] {
    return this.perSession;
  }

  start(): void {
    if (this.perSession.length === 0) return;
    const every = Math.max(1000, Math.min(30_000, ...this.perSession.map((c) => c.idleTimeoutMs / 2)));
    this.sweeper = setInterval(() => this.sweepIdle(), every);
    this.sweeper.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    // Stopping ends stdio and WebSocket sessions; a legacy HTTP session can resume, so it is only let go.
    for (const s of [...this.all.values()]) await this.close(s, s.transport === 'http' && !s.stateless ? 'release' : 'end');
  }

  register(session: ClientSession): void {
    if (this.all.has(session.id)) return;
    this.all.set(session.id, session);
    this.deps.onChange();
  }

  /**
   * `end`: the session is over — what it held elsewhere (label, grants, waiting approvals) goes too.
   * `release`: only this process lets go of it (idle here, or the gateway stopping); a legacy session lives on
   * in the store, for the next process or another replica.
   */
  async close(session: ClientSession, how: 'end' | 'release' = 'end'): Promise<void> {
    session.close();
    this.all.delete(session.id);
    for (const holders of this.slots.values()) holders.delete(session);
    this.deps.onChange();
    await this.deps.onClose(session, how);
    await Promise.all(session.ownUpstreams.map((u) => u.close()));
  }

  /**
   * Starts a new session's own server processes, mirroring the client's capabilities. All or none: a session
   * that cannot have a slot of every per-session server is refused (SESSION_LIMIT, saying why), never opened
   * with some of its tools missing.
   */
  async startOwnServers(session: ClientSession, configs: readonly ServerConfig[] = this.perSession): Promise<void> {
    this.claim(session, configs);
    await this.launch(session, configs);
  }

  /**
   * A stored session resumes here: its servers start again if there are slots for them; if not, they stay
   * dormant, so its next request tries again and, still without a slot, gets the reason.
   */
  async resumeOwnServers(session: ClientSession): Promise<void> {
    try {
      this.claim(session, this.perSession);
    } catch (err) {
      if (!isLocal(err, 'SESSION_LIMIT')) throw err;
      session.dormant.push(...this.perSession);
      return;
    }
    await this.launch(session, this.perSession);
  }

  /** Restarts a session's per-session processes that were stopped while it was idle; refused like a new session, staying dormant. */
  async wake(session: ClientSession): Promise<void> {
    this.claim(session, session.dormant);
    await this.launch(session, session.dormant.splice(0));
  }

  /**
   * Takes a slot of each server for `session`, or none: synchronous, so sessions initialising at once cannot
   * take more than `maxSessions` between them. Throws SESSION_LIMIT when one cannot be had.
   */
  private claim(session: ClientSession, configs: readonly ServerConfig[]): void {
    const plan: { holders: Set<ClientSession>; config: ServerConfig; from?: ClientSession }[] = [];
    for (const config of configs) {
      const holders = this.slots.get(config) ?? this.slots.set(config, new Set()).get(config)!;
      if (holders.has(session)) continue;
      if (holders.size < config.maxSessions) {
        plan.push({ holders, config });
        continue;
      }
      const taken = slotToTake(holders, session);
      if (typeof taken === 'string') {
        this.deps.log.warn({ upstream: config.name, max: config.maxSessions, agent: identityOf(session) }, 'per-session server has no free slot for this session');
        throw new SluiceError('SESSION_LIMIT', `per-session server "${config.name}" has no free slot for this session: its ${config.maxSessions} slots (maxSessions) are in use, ${taken}`);
      }
      plan.push({ holders, config, from: taken });
    }
    for (const { holders, config, from } of plan) {
      if (from) {
        this.suspend(from, config);
        this.catalogChanged(from);
      }
      holders.add(session);
    }
  }

  /** Starts the processes of servers whose slots `session` holds, then reviews their definitions. */
  private async launch(session: ClientSession, configs: readonly ServerConfig[]): Promise<void> {
    const started = configs.map((config) => {
      const upstream = this.deps.createUpstream(config, session.clientCapabilities, session);
      session.ownUpstreams.push(upstream);
      return upstream;
    });
    await Promise.all(started.map((u) => u.start()));
    if (started.length > 0) await this.deps.review(session);
    session.catalog = undefined;
  }

  /** Stops a session's process of `config` and gives up its slot; its next request starts it again (see `wake`). */
  private suspend(session: ClientSession, config: ServerConfig): void {
    this.slots.get(config)?.delete(session);
    const upstream = session.ownUpstreams.find((u) => u.config === config);
    if (!upstream) return;
    session.dormant.push(config);
    session.ownUpstreams.splice(session.ownUpstreams.indexOf(upstream), 1);
    void upstream.close();
  }

  /**
   * Stops per-session processes whose session has been quiet for the server's `idleTimeoutSeconds`; the
   * session's next request starts them again (see `wake`). Keeps a cap's worth of idle clients from holding
   * every process slot.
   */
  private sweepIdle(): void {
    const now = Date.now();
    for (const session of this.all.values()) {
      const idle = session.ownUpstreams.filter((u) => now - session.lastSeen > u.config.idleTimeoutMs);
      if (idle.length === 0) continue;
      for (const u of idle) this.suspend(session, u.config);
      this.catalogChanged(session);
    }
  }

  /** A session's own servers changed: its merged catalog is rebuilt on next use and its client told. */
  catalogChanged(session: ClientSession): void {
    session.catalog = undefined;
    for (const method of ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']) {
      if (session.initialized) session.channel.send(notification(method));
    }
  }

  /** The catalog a session sees: the shared one, or — with per-session servers — its own merge. */
  catalogFor(session: ClientSession, shared: Catalog, sharedUpstreams: readonly Upstream[]): Catalog {
    if (session.ownUpstreams.length === 0) return shared;
    session.catalog ??= new Catalog(this.upstreamsFor(session, sharedUpstreams), this.deps.config.separator, this.deps.guard);
    return session.catalog;
  }

  /** Shared and per-session upstreams in config order, so precedence follows the file. */
  upstreamsFor(session: ClientSession, shared: readonly Upstream[]): Upstream[] {
    if (session.ownUpstreams.length === 0) return [...shared];
    const order = new Map(this.deps.config.servers.map((s, i) => [s.name, i]));
    return [...shared, ...session.ownUpstreams].sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  }

  /** The sessions an upstream serves: all of them for a shared one, its owner for a per-session one. */
  sessionsOf(upstream: Upstream, shared: readonly Upstream[]): ClientSession[] {
    if (shared.includes(upstream)) return [...this.all.values()];
    return [...this.all.values()].filter((s) => s.ownUpstreams.includes(upstream));
  }

  private runningOf(config: ServerConfig): number {
    return this.slots.get(config)?.size ?? 0;
  }

  /** Per-session servers for /readyz: how many sessions run each. */
  status(): Params[] {
    return this.perSession.map((c) => ({ name: c.name, mode: 'per-session', transport: c.transport, sessions: this.runningOf(c) }));
  }
}

/** Whose slot a session holds: its identity key, so an OAuth subject and a declared agent of the same name count apart. */
function identityOf(session: ClientSession): string {
  return session.principal?.agent ?? '';
}

/**
 * With every slot taken, whose session gives one up to `asker`: a fair share, not first come. The identity
 * holding the most slots gives up its least recently active idle session — but only if it holds at least two
 * more than the asker's identity, so that taking never leaves it with fewer than the asker (max-min fairness:
 * one agent cannot keep the rest out, and no agent can be pushed below an even split). A session in the middle
 * of a request is never stopped. Otherwise the reason the asker is refused.
 */
function slotToTake(holders: ReadonlySet<ClientSession>, asker: ClientSession): ClientSession | string {
  const mine = identityOf(asker);
  const byIdentity = new Map<string, ClientSession[]>();
  for (const s of holders) {
    const id = identityOf(s);
    (byIdentity.get(id) ?? byIdentity.set(id, []).get(id)!).push(s);
  }
  const held = byIdentity.get(mine)?.length ?? 0;
  let richest: ClientSession[] = [];
  for (const [id, sessions] of byIdentity) if (id !== mine && sessions.length > richest.length) richest = sessions;
  if (richest.length < held + 2) {
    return held > 0
      ? `${held} of them by this agent's sessions, and no other agent holds more than its fair share; end one of this agent's sessions, or wait until one idles out`
      : 'and no agent holds more than its fair share; try again when a session ends or idles out';
  }
  const idle = richest.filter((s) => s.inflight.size === 0).sort((a, b) => a.lastSeen - b.lastSeen);
  return idle[0] ?? 'and the agent holding the most slots is using every one of them right now; try again shortly';
}
