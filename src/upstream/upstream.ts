import { EventEmitter } from 'node:events';
import { errorTypeOf, lifecycle, type TraceCarrier } from '../lifecycle.js';
import type { ServerConfig } from '../config/schema.js';
import type { Logger } from '../log.js';
import { createClientTransport, type ClientTransport } from '../protocol/client-transport.js';
import { SluiceError } from '../protocol/errors.js';
import { ErrorCode, RpcError, type JsonRpcNotification, type JsonRpcRequest, type Params } from '../protocol/jsonrpc.js';
import { LEGACY_VERSIONS } from '../protocol/versions.js';
import { SLUICE_VERSION } from '../version.js';
import { redacted } from '../filters/redact.js';
import { failureKind, type FailureKind } from './failure.js';
import { GarbageGuard } from './garbage-guard.js';
import { RpcPeer, type RequestOptions } from './peer.js';

export type UpstreamState = 'connecting' | 'ready' | 'unavailable' | 'closed';
export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** What one upstream offers, exactly as it sent it (we never strip fields we do not know). */
export interface UpstreamLists {
  tools: Params[];
  resources: Params[];
  resourceTemplates: Params[];
  prompts: Params[];
}

/** Per list: its method, the result field holding it, the capability that offers it, and the key of each entry. */
const LIST_METHODS: Record<ListKind, { method: string; field: string; capability: string; key: string }> = {
  tools: { method: 'tools/list', field: 'tools', capability: 'tools', key: 'name' },
  resources: { method: 'resources/list', field: 'resources', capability: 'resources', key: 'uri' },
  resourceTemplates: { method: 'resources/templates/list', field: 'resourceTemplates', capability: 'resources', key: 'uriTemplate' },
  prompts: { method: 'prompts/list', field: 'prompts', capability: 'prompts', key: 'name' },
};

/** By notification method; a Map, because the method is whatever the upstream sent. */
const LIST_CHANGED = new Map<string, ListKind[]>([
  ['notifications/tools/list_changed', ['tools']],
  ['notifications/resources/list_changed', ['resources', 'resourceTemplates']],
  ['notifications/prompts/list_changed', ['prompts']],
]);

export interface UpstreamEvents {
  /** Its lists changed (or it came or went): the merged catalog must be rebuilt. */
  change: [];
  /** A notification that is not about its lists (progress, logging, resource updates, cancellations). */
  notification: [JsonRpcNotification];
}

export interface UpstreamOptions {
  logger: Logger;
  /** Capabilities we announce to the server; decides e.g. whether it may ask for sampling. */
  clientCapabilities: Params;
  /** Handles what the server asks of its client (sampling, elicitation, roots). */
  onRequest(request: JsonRpcRequest): Promise<Params>;
  /** Reconnect after a failure; off for per-session instances, which their session owns. */
  reconnect: boolean;
  /** The bearer token sluice presents to this (http or sse) server, when its config has `auth`. */
  bearer?: () => Promise<string>;
}

/**
 * One configured upstream server: connects, negotiates, keeps its lists cached, reconnects with exponential
 * backoff and jitter when it fails, and forwards calls. A failure here never leaves this object: the gateway
 * just sees the server as unavailable until it comes back.
 */
export class Upstream extends EventEmitter<UpstreamEvents> {
  state: UpstreamState = 'connecting';
  /** Why it last failed, as the error said it (with secrets redacted): may carry what the server wrote — operators only. */
  lastError?: string;
  /** The same as a word (failure.ts): what /readyz and clients are told. */
  lastFailure?: FailureKind;
  attempts = 0;
  /** Its first connection attempt is still running (or has not begun): /readyz lists it as starting. */
  starting = true;
  nextRetryAt?: number;
  /** The delay chosen before the next attempt (for status pages, and to see the backoff grow). */
  retryDelayMs?: number;
  connectedAt?: number;
  protocolVersion?: string;
  serverInfo?: Params;
  capabilities: Params = {};
  instructions?: string;
  lists: UpstreamLists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  /** Messages from the server that failed the check at the edge and were dropped, since this object was made. */
  garbage = 0;
  /** Well-formed messages the method table does not carry (unknown notifications and requests), dropped and counted. */
  dropped = 0;
  /** Well-formed responses that matched no call in flight (late answers, ids we never sent), dropped quietly. */
  unmatched = 0;

  /** The server's process id while a stdio server runs (for status pages, and tests that kill it). */
  pid?: number;
  private peer?: RpcPeer;
  private retryTimer?: NodeJS.Timeout;
  private readonly refreshing = new Map<ListKind, Promise<void>>();
  private readonly stale = new Set<ListKind>();
  private generation = 0;
  private readonly guard = new GarbageGuard();

  constructor(
    readonly config: ServerConfig,
    private readonly options: UpstreamOptions,
  ) {
    super();
  }

  get name(): string {
    return this.config.name;
  }

  /** Starts connecting; resolves once the first attempt has succeeded or failed (never rejects). */
  start(): Promise<void> {
    return this.connect().finally(() => (this.starting = false));
  }

  async close(): Promise<void> {
    this.state = 'closed';
    clearTimeout(this.retryTimer);
    this.generation++;
    const peer = this.peer;
    this.peer = undefined;
    await peer?.close().catch(() => undefined);
  }

  request(method: string, params: Params | undefined, options: Partial<RequestOptions> & { trace?: TraceCarrier } = {}): Promise<Params> {
    const peer = this.peer;
    if (this.state !== 'ready' || !peer) {
      return Promise.reject(new SluiceError('UPSTREAM_UNAVAILABLE', `upstream server "${this.name}" is unavailable${this.lastFailure ? ` (${this.lastFailure})` : ''}`));
    }
    const answer = peer.request(method, params, { timeoutMs: options.timeoutMs ?? this.config.requestTimeoutMs, signal: options.signal });
    return lifecycle.upstreamRequest.active ? this.observed(method, answer, options.trace) : answer;
  }

  /** Tells the lifecycle channel how long the answer took and how it ended. */
  private async observed(method: string, answer: Promise<Params>, trace: TraceCarrier | undefined): Promise<Params> {
    const started = performance.now();
    const publish = (errorType?: string) => lifecycle.upstreamRequest.publish({ server: this.name, method, durationS: (performance.now() - started) / 1000, errorType, trace });
    try {
      const result = await answer;
      publish(result.isError === true ? 'tool_error' : undefined);
      return result;
    } catch (err) {
      publish(errorTypeOf(err));
      throw err;
    }
  }

  notify(method: string, params?: Params): Promise<void> {
    return this.peer?.notify(method, params) ?? Promise.resolve();
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.state = 'connecting';
    this.attempts++;
    const log = this.options.logger;
    let transport: ClientTransport | undefined;
    try {
      transport = this.createTransport();
      // Set before the peer wraps them: the peer fails its pending requests first, then this runs.
      const closing = transport;
      // An HTTP transport says why in an error just before it closes (refused, 401): the close is told that.
      let lastTransportError: Error | undefined;
      transport.onclose = () =>
        this.onDisconnect(
          generation,
          closing.closeReason ?? lastTransportError?.message ?? 'connection closed',
          closing.closeKind ?? (lastTransportError ? failureKind(lastTransportError) : 'connection lost'),
        );
      transport.onerror = (err) => {
        lastTransportError = err;
        log.debug({ upstream: this.name, err: err.message }, 'upstream transport error');
      };
      const peer: RpcPeer = new RpcPeer(
        transport,
        {
          onRequest: (req) => (req.method === 'ping' ? Promise.resolve({}) : this.options.onRequest(req)),
          onNotification: (n) => this.onNotification(n),
          onInvalid: (reason) => this.onInvalid(generation, peer, reason),
          onUnmatched: () => void this.unmatched++,
        },
        this.name,
      );
      await transport.start();
      this.pid = transport.pid;
      const init = await peer.request(
        'initialize',
        { protocolVersion: LEGACY_VERSIONS[0], capabilities: this.options.clientCapabilities, clientInfo: { name: 'sluice', version: SLUICE_VERSION } },
        { timeoutMs: 30_000 },
      );
      const version = typeof init.protocolVersion === 'string' ? init.protocolVersion : '';
      if (!(LEGACY_VERSIONS as readonly string[]).includes(version)) throw new SluiceError('UPSTREAM_PROTOCOL', `server answered with unsupported protocol version "${version}"`);
      transport.setProtocolVersion?.(version);
      await peer.notify('notifications/initialized');
      if (generation !== this.generation) return void peer.close();
      this.peer = peer;
      this.protocolVersion = version;
      this.serverInfo = init.serverInfo as Params | undefined;
      this.capabilities = (init.capabilities as Params | undefined) ?? {};
      this.instructions = typeof init.instructions === 'string' ? init.instructions : undefined;
      await Promise.all((Object.keys(LIST_METHODS) as ListKind[]).map((k) => this.fetchList(peer, k)));
      if (generation !== this.generation) return;
      this.state = 'ready';
      this.attempts = 0;
      this.lastError = undefined;
      this.lastFailure = undefined;
      this.connectedAt = Date.now();
      log.info({ upstream: this.name, version, tools: this.lists.tools.length, resources: this.lists.resources.length, prompts: this.lists.prompts.length }, 'upstream ready');
      this.emit('change');
    } catch (err) {
      if (generation !== this.generation) return;
      this.peer = undefined;
      void transport?.close().catch(() => undefined);
      this.onDisconnect(generation, (err as Error).message, failureKind(err));
    }
  }

  private onDisconnect(generation: number, reason: string, kind: FailureKind): void {
    if (generation !== this.generation || this.state === 'closed' || this.state === 'unavailable') return;
    const wasReady = this.state === 'ready';
    this.state = 'unavailable';
    // Redacted here, once: the text goes to the log and the operator's status views.
    this.lastError = redacted(reason);
    this.lastFailure = kind;
    this.peer = undefined;
    this.pid = undefined;
    this.lists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
    this.options.logger.warn({ upstream: this.name, reason: this.lastError, failure: kind, attempts: this.attempts }, 'upstream unavailable');
    if (wasReady) this.emit('change');
    if (this.options.reconnect) this.scheduleRetry();
  }

  /**
   * A message that failed the check at the edge (the peer has already failed the call it answered). Logged at
   * most once a second; a server that sends more than the guard allows is broken, and is restarted the way a
   * crashed one is: marked unavailable, closed, and reconnected with the usual backoff.
   */
  private onInvalid(generation: number, peer: RpcPeer, reason: string): void {
    this.garbage++;
    const log = this.options.logger;
    const verdict = this.guard.note(performance.now());
    if (verdict.log) {
      const suppressed = verdict.suppressed ? { suppressed: verdict.suppressed } : {};
      log.warn({ upstream: this.name, reason, invalidMessages: this.garbage, ...suppressed }, 'dropped an invalid message from upstream');
    }
    if (!verdict.tooMany || generation !== this.generation || this.state === 'closed' || this.state === 'unavailable') return;
    const { max, windowMs } = this.guard.limits;
    const why = `server "${this.name}" sent more than ${max} invalid messages within ${windowMs / 1000} s (last: ${reason}); restarting it`;
    log.error({ upstream: this.name }, why);
    this.onDisconnect(generation, why, 'protocol error');
    void peer.close(new SluiceError('UPSTREAM_UNAVAILABLE', why)).catch(() => undefined);
  }

  /** Exponential backoff with full jitter: 0.5 s, 1 s, 2 s … capped at 30 s. */
  private scheduleRetry(): void {
    const ceiling = Math.min(30_000, 500 * 2 ** Math.min(this.attempts - 1, 10));
    const delay = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    this.retryDelayMs = delay;
    this.nextRetryAt = Date.now() + delay;
    this.retryTimer = setTimeout(() => {
      this.nextRetryAt = undefined;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  private createTransport(): ClientTransport {
    const c = this.config;
    const log = this.options.logger;
    return createClientTransport(c, { onStderr: (line) => log.debug({ upstream: c.name }, line), bearer: this.options.bearer });
  }

  private async fetchList(peer: RpcPeer, kind: ListKind): Promise<void> {
    const { method, field, capability, key } = LIST_METHODS[kind];
    if (!this.capabilities[capability]) {
      this.lists[kind] = [];
      return;
    }
    const items: Params[] = [];
    let dropped = 0;
    let cursor: string | undefined;
    // Follow every page; a server that repeats a cursor must not keep us here forever.
    for (let page = 0; page < 1000; page++) {
      let result: Params;
      try {
        result = await peer.request(method, cursor ? { cursor } : undefined, { timeoutMs: 30_000 });
      } catch (err) {
        // Many servers with resources have no templates and never implemented the method: that is no templates.
        if (kind === 'resourceTemplates' && err instanceof RpcError && err.code === ErrorCode.MethodNotFound) break;
        throw err;
      }
      const got = result[field];
      // The catalog reads every entry's key: an entry that is not an object with a string key is dropped here.
      if (Array.isArray(got)) {
        for (const item of got) {
          if (isEntry(item, key)) items.push(item);
          else dropped++;
        }
      }
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== cursor ? result.nextCursor : undefined;
      if (!cursor) break;
    }
    if (dropped) this.options.logger.warn({ upstream: this.name, list: kind, dropped }, `dropped list entries without a string "${key}"`);
    this.lists[kind] = items;
  }

  /**
   * Re-reads a list after `list_changed`. A burst of notifications costs at most two reads: the one running,
   * and one more afterwards so that the last change is never missed.
   */
  refresh(kind: ListKind): Promise<void> {
    const running = this.refreshing.get(kind);
    if (running) {
      this.stale.add(kind);
      return running;
    }
    const peer = this.peer;
    if (!peer || this.state !== 'ready') return Promise.resolve();
    const job = this.fetchList(peer, kind)
      .then(() => void this.emit('change'))
      .catch((err: Error) => this.options.logger.warn({ upstream: this.name, list: kind, err: err.message }, 'list refresh failed'))
      .finally(() => {
        this.refreshing.delete(kind);
        if (this.stale.delete(kind)) void this.refresh(kind);
      });
    this.refreshing.set(kind, job);
    return job;
  }

  private onNotification(n: JsonRpcNotification): void {
    const kinds = LIST_CHANGED.get(n.method);
    if (kinds) {
      for (const k of kinds) void this.refresh(k);
      return;
    }
    this.emit('notification', n);
  }
}

function isEntry(item: unknown, key: string): item is Params {
  return item !== null && typeof item === 'object' && !Array.isArray(item) && typeof (item as Params)[key] === 'string';
}
