import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { formatLabel, parseLabel, type Label } from '../ifc/label.js';
import { Waiters, copy } from './memory-state.js';
import type {
  DefinitionPin,
  PinStore,
  PinsMessage,
  ApprovalStore,
  ApprovalVerdict,
  Bus,
  BusMessages,
  BusTopic,
  BucketTake,
  ConsoleLogin,
  Grant,
  LabelHolder,
  LabelStore,
  ParkedMessage,
  PendingApproval,
  RateLimitStore,
  RecordStore,
  SessionMessage,
  SessionRecord,
  SseMessage,
  SseStreamRecord,
  StateStores,
  SwitchName,
  SwitchStore,
  TakeResult,
  TokenEntry,
  TokenStore,
} from './ports.js';
import { pinId, SWITCHES } from './ports.js';
import { connectRedis, type RedisConnectionOptions } from './redis-connection.js';
import { hashToken, newToken } from './token-hash.js';
import { LABEL_SCRIPT, SETTLE_SCRIPT, TAKE_SCRIPT } from './redis-scripts.js';

export interface RedisStateOptions extends RedisConnectionOptions {
  keyPrefix: string;
  sealKey: Buffer;
}

/**
 * The shared state for a cluster: every port in one Redis, so any replica can serve any request. Checks read
 * Redis on every call (no cache that another replica's write could leave stale), except the pause switch,
 * which is cached for at most half a second and dropped at once when a change is published. With Redis
 * unreachable every command rejects immediately, so every check that needs one refuses: fail closed.
 */
export async function redisState(url: string, options: RedisStateOptions): Promise<StateStores> {
  const commands = await connectRedis(url, 'commands', options);
  let subscriber: Redis;
  try {
    subscriber = await connectRedis(url, 'subscriber', options);
  } catch (err) {
    commands.disconnect();
    throw err;
  }
  const keys = new Keys(options.keyPrefix);
  const channels = new Channels(subscriber, keys);
  const replicaId = randomBytes(8).toString('hex');
  const approvals = new RedisApprovals(commands, keys, channels, replicaId);
  await approvals.start();
  return {
    labels: new RedisLabels(commands, keys),
    limits: new RedisRateLimits(commands, keys),
    switches: new RedisSwitches(commands, keys, channels, replicaId),
    approvals,
    sessions: new RedisRecords<SessionRecord>(commands, keys, 'session'),
    consoleLogins: new RedisRecords<ConsoleLogin>(commands, keys, 'console'),
    sseStreams: new RedisRecords<SseStreamRecord>(commands, keys, 'sse'),
    tokens: new RedisTokens(commands, keys),
    bus: new RedisBus(commands, keys, channels, replicaId),
    pins: new RedisPins(commands, keys),
    sealKey: options.sealKey,
    close: async () => {
      await approvals.stop();
      subscriber.disconnect();
      await commands.quit().catch(() => commands.disconnect());
    },
  };
}

/** Every key and channel name, under the configured prefix. */
class Keys {
  constructor(readonly prefix: string) {}
  readonly sessionLabels = () => `${this.prefix}labels:sessions`;
  readonly marks = () => `${this.prefix}labels:marks`;
  readonly bucket = (key: string) => `${this.prefix}bucket:${key}`;
  readonly switch = (name: SwitchName) => `${this.prefix}switch:${name}`;
  readonly approval = (id: string) => `${this.prefix}approval:${id}`;
  readonly verdict = (id: string) => `${this.prefix}approval:${id}:verdict`;
  readonly pending = () => `${this.prefix}approvals:pending`;
  readonly pins = () => `${this.prefix}pins`;
  readonly sessionApprovals = (session: string) => `${this.prefix}approvals:session:${session}`;
  // Agent and tool names are joined as JSON, so no choice of names can make two pairs share a key.
  readonly grants = (agent: string, tool: string) => `${this.prefix}grants:${JSON.stringify([agent, tool])}`;
  readonly sessionGrants = (session: string) => `${this.prefix}grants:session:${session}`;
  readonly record = (kind: string, key: string) => `${this.prefix}record:${kind}:${key}`;
  readonly tokens = () => `${this.prefix}tokens`;
  readonly replica = (id: string) => `${this.prefix}replica:${id}`;
  readonly channel = (name: string) => `${this.prefix}channel:${name}`;
}

/**
 * What a command's failure means to whoever asked: when Redis cannot be reached the message says so and
 * where (never ioredis's "Stream isn't writeable…"); any other error passes as it is.
 */
function unreachable(redis: Redis): (err: unknown) => never {
  return (err) => {
    const message = err instanceof Error ? err.message : String(err);
    if (redis.status === 'ready' && !/timed out|ECONNREFUSED|ECONNRESET|Connection is closed/i.test(message)) throw err;
    const { host, port, db } = redis.options;
    throw new Error(`the shared state (Redis at ${host}:${port}/${db ?? 0}) is unreachable: ${redis.status === 'ready' ? message : 'not connected'}`);
  };
}

/** A Lua script run by its hash, loaded on first use (and again after a Redis restart forgot it). */
class Script {
  private readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!String((err as Error).message).startsWith('NOSCRIPT')) unreachable(redis)(err);
      return redis.eval(this.lua, keys.length, ...keys, ...args).catch(unreachable(redis));
    }
  }
}

const labelScript = new Script(LABEL_SCRIPT);
const takeScript = new Script(TAKE_SCRIPT);
const settleScript = new Script(SETTLE_SCRIPT);

/** Pub/sub on the one subscriber connection: channel name → local listeners. */
class Channels {
  private readonly listeners = new Map<string, Set<(text: string) => void>>();
  /** Fires when the subscriber reconnected: whatever was published meanwhile is lost, so caches must go. */
  readonly reconnected = new EventEmitter<{ ready: [] }>();

  constructor(
    private readonly subscriber: Redis,
    private readonly keys: Keys,
  ) {
    subscriber.on('message', (channel: string, text: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener(text);
    });
    subscriber.on('ready', () => this.reconnected.emit('ready'));
    subscriber.on('close', () => this.reconnected.emit('ready'));
  }

  name(channel: string): string {
    return this.keys.channel(channel);
  }

  listen(channel: string, listener: (text: string) => void): () => void {
    const name = this.name(channel);
    let set = this.listeners.get(name);
    if (!set) {
      this.listeners.set(name, (set = new Set()));
      void this.subscriber.subscribe(name).catch(() => undefined); // resubscribed on reconnect by ioredis
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0) return;
      this.listeners.delete(name);
      void this.subscriber.unsubscribe(name).catch(() => undefined);
    };
  }
}

class RedisLabels implements LabelStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {}

  private async run(holder: LabelHolder, seen: Label | undefined): Promise<{ before: Label; after: Label }> {
    const out = (await labelScript.run(this.redis, [this.keys.sessionLabels(), this.keys.marks()], [
      holder.id,
      holder.agent,
      holder.stateless ? '1' : '0',
      holder.isolated ? '1' : '0',
      seen ? formatLabel(seen) : '',
    ])) as [string, string];
    return { before: parseLabel(out[0]), after: parseLabel(out[1]) };
  }

  async of(holder: LabelHolder): Promise<Label> {
    return (await this.run(holder, undefined)).before;
  }

  raise(holder: LabelHolder, seen: Label): Promise<{ before: Label; after: Label }> {
    return this.run(holder, seen);
  }

  async forget(sessionId: string): Promise<void> {
    await this.redis.hdel(this.keys.sessionLabels(), sessionId);
  }

  async reset(target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]): Promise<void> {
    const bottom = formatLabel({ integrity: 'trusted', confidentiality: 'public' });
    const tx = this.redis.multi();
    if (target.sessionId) tx.hset(this.keys.sessionLabels(), target.sessionId, bottom);
    if (target.agent) {
      tx.hdel(this.keys.marks(), target.agent);
      for (const id of sessionsOfAgent) tx.hset(this.keys.sessionLabels(), id, bottom);
    }
    await tx.exec();
  }

  async identities(): Promise<[string, Label][]> {
    const all = await this.redis.hgetall(this.keys.marks());
    return Object.keys(all)
      .sort()
      .map((agent) => [agent, parseLabel(all[agent])]);
  }
}

class RedisRateLimits implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {}

  async take(buckets: readonly BucketTake[]): Promise<TakeResult> {
    if (buckets.length === 0) return { ok: true };
    const out = (await takeScript.run(
      this.redis,
      buckets.map((b) => this.keys.bucket(b.key)),
      buckets.flatMap((b) => [b.bucket.burst, b.bucket.perSecond]),
    )) as number[];
    return out[0] === 1 ? { ok: true } : { ok: false, index: out[1], retryAfterMs: out[2] };
  }
}

/** How long a replica trusts its copy of a switch when no change was published: a lost message costs at most this. */
const SWITCH_CACHE_MS = 500;

class RedisSwitches implements SwitchStore {
  private readonly events = new EventEmitter<{ change: [SwitchName, boolean] }>();
  private readonly cache = new Map<SwitchName, { on: boolean; at: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    channels: Channels,
    private readonly replicaId: string,
  ) {
    channels.listen('switches', (text) => {
      const change = parseSwitchChange(text);
      if (!change || change.from === this.replicaId) return; // our own set: already applied and told
      // The message says a switch changed; Redis says to what (a late message must not undo a newer value).
      this.cache.delete(change.name);
      this.events.emit('change', change.name, change.on);
    });
    channels.reconnected.on('ready', () => this.cache.clear());
  }

  async get(name: SwitchName): Promise<boolean> {
    const cached = this.cache.get(name);
    if (cached && performance.now() - cached.at < SWITCH_CACHE_MS) return cached.on;
    const on = (await this.redis.get(this.keys.switch(name)).catch(unreachable(this.redis))) === '1';
    this.cache.set(name, { on, at: performance.now() });
    return on;
  }

  async set(name: SwitchName, on: boolean): Promise<void> {
    if (!SWITCHES.includes(name)) throw new Error(`unknown switch ${String(name)}`);
    await this.redis
      .multi()
      .set(this.keys.switch(name), on ? '1' : '0')
      .publish(this.keys.channel('switches'), JSON.stringify({ name, on, from: this.replicaId }))
      .exec();
    this.cache.set(name, { on, at: performance.now() });
    this.events.emit('change', name, on);
  }

  watch(listener: (name: SwitchName, on: boolean) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }
}

function parseSwitchChange(text: string): { name: SwitchName; on: boolean; from: string } | undefined {
  try {
    const m = JSON.parse(text) as { name?: unknown; on?: unknown; from?: unknown };
    const name = SWITCHES.find((s) => s === m.name);
    return name && typeof m.on === 'boolean' && typeof m.from === 'string' ? { name, on: m.on, from: m.from } : undefined;
  } catch {
    return undefined;
  }
}

/** A request as stored: which replica's call waits for it, so a request whose replica died can be expired. */
interface StoredRequest {
  owner: string;
  pending: PendingApproval;
}

const VERDICT_TTL_MS = 3_600_000;
/** A replica proves it is alive this often; a request whose replica stopped proving it for longer is expired. */
const HEARTBEAT_MS = 2000;
const HEARTBEAT_TTL_MS = 10_000;
/** Waiters also look for their verdict this often, in case a published one was lost. */
const WAIT_POLL_MS = 1000;

class RedisApprovals implements ApprovalStore {
  private readonly waiters = new Waiters();
  private readonly waiting = new Set<string>();
  private readonly changes = new EventEmitter<{ change: [] }>();
  private heartbeat?: NodeJS.Timeout;
  private poll?: NodeJS.Timeout;
  private readonly unlisten: (() => void)[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    private readonly channels: Channels,
    private readonly replicaId: string,
  ) {}

  async start(): Promise<void> {
    this.unlisten.push(
      this.channels.listen('approvals', (text) => {
        const settled = parseSettled(text);
        if (settled) this.wake(settled.id, settled.verdict);
        this.changes.emit('change');
      }),
    );
    this.unlisten.push(this.channels.listen('approvals-added', () => this.changes.emit('change')));
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch(() => undefined), HEARTBEAT_MS).unref();
    this.poll = setInterval(() => void this.lookForVerdicts().catch(() => undefined), WAIT_POLL_MS).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    clearInterval(this.poll);
    for (const off of this.unlisten) off();
    // Whatever this replica's calls still waited for has nobody waiting any more.
    await this.redis.del(this.keys.replica(this.replicaId)).catch(() => undefined);
  }

  private beat(): Promise<unknown> {
    return this.redis.set(this.keys.replica(this.replicaId), '1', 'PX', HEARTBEAT_TTL_MS);
  }

  private wake(id: string, verdict: ApprovalVerdict): void {
    this.waiting.delete(id);
    this.waiters.wake(id, verdict);
  }

  async add(p: PendingApproval): Promise<void> {
    const ttl = Math.max(0, Date.parse(p.expiresAt) - Date.now()) + VERDICT_TTL_MS;
    const stored: StoredRequest = { owner: this.replicaId, pending: p };
    await this.redis
      .multi()
      .set(this.keys.approval(p.id), JSON.stringify(stored), 'PX', ttl)
      .zadd(this.keys.pending(), Date.parse(p.requestedAt) || Date.now(), p.id)
      .sadd(this.keys.sessionApprovals(p.session), p.id)
      .pexpire(this.keys.sessionApprovals(p.session), ttl)
      .publish(this.keys.channel('approvals-added'), p.id)
      .exec();
    this.changes.emit('change');
  }

  async list(): Promise<PendingApproval[]> {
    const ids = await this.redis.zrange(this.keys.pending(), '0', '-1').catch(unreachable(this.redis));
    const requests = await this.requests(ids);
    const live: PendingApproval[] = [];
    for (const [id, stored] of requests) {
      if (!stored) await this.redis.zrem(this.keys.pending(), id); // its key expired
      else if (!(await this.ownerAlive(stored))) await this.expireOrphan(id);
      else live.push(stored.pending);
    }
    return live;
  }

  private async requests(ids: string[]): Promise<[string, StoredRequest | undefined][]> {
    if (ids.length === 0) return [];
    const bodies = await this.redis.mget(ids.map((id) => this.keys.approval(id)));
    return ids.map((id, i) => [id, parseStored(bodies[i])]);
  }

  private async ownerAlive(stored: StoredRequest): Promise<boolean> {
    return stored.owner === this.replicaId || (await this.redis.exists(this.keys.replica(stored.owner))) === 1;
  }

  private expireOrphan(id: string): Promise<PendingApproval | undefined> {
    return this.settle(id, { granted: false, outcome: 'expired', by: 'sluice', reason: 'the replica that held the call stopped' });
  }

  async settle(id: string, verdict: ApprovalVerdict): Promise<PendingApproval | undefined> {
    const body = (await settleScript.run(this.redis, [this.keys.approval(id), this.keys.verdict(id), this.keys.pending()], [
      id,
      JSON.stringify(verdict),
      VERDICT_TTL_MS,
      this.keys.channel('approvals'),
    ])) as string | null;
    const stored = parseStored(body);
    if (!stored) return undefined;
    this.wake(id, verdict);
    this.changes.emit('change');
    return stored.pending;
  }

  async wait(id: string): Promise<ApprovalVerdict> {
    const promise = this.waiters.wait(id);
    this.waiting.add(id);
    await this.check(id);
    return promise;
  }

  /** Looks up every verdict still waited for: the safety net under pub/sub, which may drop a message. */
  private async lookForVerdicts(): Promise<void> {
    for (const id of [...this.waiting]) await this.check(id);
  }

  private async check(id: string): Promise<void> {
    const text = await this.redis.get(this.keys.verdict(id));
    const verdict = parseVerdict(text);
    if (verdict) return this.wake(id, verdict);
    const stored = parseStored(await this.redis.get(this.keys.approval(id)));
    if (stored && !(await this.ownerAlive(stored))) await this.expireOrphan(id);
  }

  async addGrant(g: Grant): Promise<void> {
    const key = this.keys.grants(g.agent, g.tool);
    const field = randomBytes(8).toString('hex');
    const tx = this.redis.multi().hset(key, field, JSON.stringify(g));
    if (g.session) tx.sadd(this.keys.sessionGrants(g.session), `${key}\n${field}`);
    await tx.exec();
  }

  async grants(agent: string, tool: string): Promise<Grant[]> {
    const key = this.keys.grants(agent, tool);
    const all = await this.redis.hgetall(key).catch(unreachable(this.redis));
    const now = Date.now();
    const live: Grant[] = [];
    const expired: string[] = [];
    for (const [field, text] of Object.entries(all)) {
      const g = parseGrant(text);
      if (g && (g.expiresAt === undefined || g.expiresAt > now)) live.push(g);
      else expired.push(field);
    }
    if (expired.length > 0) await this.redis.hdel(key, ...expired);
    return live;
  }

  async endSession(session: string): Promise<PendingApproval[]> {
    const grantRefs = await this.redis.smembers(this.keys.sessionGrants(session));
    const tx = this.redis.multi();
    for (const ref of grantRefs) {
      const [key, field] = ref.split('\n');
      tx.hdel(key, field);
    }
    await tx.del(this.keys.sessionGrants(session)).exec();
    const ids = await this.redis.smembers(this.keys.sessionApprovals(session));
    const out: PendingApproval[] = [];
    for (const [id, stored] of await this.requests(ids)) {
      if (stored && (await this.redis.exists(this.keys.verdict(id))) === 0) out.push(stored.pending);
    }
    return out;
  }

  watch(listener: () => void): () => void {
    this.changes.on('change', listener);
    return () => this.changes.off('change', listener);
  }
}

function parseJson(text: string | null | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseStored(text: string | null | undefined): StoredRequest | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.owner === 'string' && isObject(v.pending) && typeof v.pending.id === 'string' ? (v as unknown as StoredRequest) : undefined;
}

function parseVerdict(text: string | null | undefined): ApprovalVerdict | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.granted === 'boolean' && typeof v.outcome === 'string' ? (v as unknown as ApprovalVerdict) : undefined;
}

function parseSettled(text: string): { id: string; verdict: ApprovalVerdict } | undefined {
  const v = parseJson(text);
  if (!isObject(v) || typeof v.id !== 'string') return undefined;
  const verdict = parseVerdict(JSON.stringify(v.verdict));
  return verdict && { id: v.id, verdict };
}

function parseGrant(text: string): Grant | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.agent === 'string' && typeof v.tool === 'string' && typeof v.definitionHash === 'string' ? (v as unknown as Grant) : undefined;
}

class RedisRecords<T> implements RecordStore<T> {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    private readonly kind: string,
  ) {}

  async get(key: string): Promise<T | undefined> {
    const v = parseJson(await this.redis.get(this.keys.record(this.kind, key)).catch(unreachable(this.redis)));
    return v === undefined ? undefined : (v as T);
  }

  async put(key: string, value: T, ttlMs: number): Promise<void> {
    await this.redis.set(this.keys.record(this.kind, key), JSON.stringify(copy(value)), 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async touch(key: string, ttlMs: number): Promise<void> {
    await this.redis.pexpire(this.keys.record(this.kind, key), Math.max(1, Math.ceil(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.keys.record(this.kind, key));
  }
}

/** How long a replica remembers what a token hash maps to: as long as the token file's re-read interval. */
const TOKEN_CACHE_MS = 1000;

/** Bearer tokens as hashes in one Redis hash: `sluice token create` on any machine serves every replica. */
class RedisTokens implements TokenStore {
  private readonly cache = new Map<string, { agent: string | undefined; at: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {}

  async agentFor(token: string): Promise<string | undefined> {
    const hash = hashToken(token);
    const cached = this.cache.get(hash);
    if (cached && performance.now() - cached.at < TOKEN_CACHE_MS) return cached.agent;
    const entry = parseTokenEntry(await this.redis.hget(this.keys.tokens(), hash).catch(unreachable(this.redis)));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { agent: entry?.agent, at: performance.now() });
    return entry?.agent;
  }

  async issue(agent: string): Promise<{ token: string; id: string }> {
    const { token, id } = newToken();
    const entry: TokenEntry = { id, agent, createdAt: new Date().toISOString() };
    await this.redis.hset(this.keys.tokens(), hashToken(token), JSON.stringify(entry));
    return { token, id };
  }

  async entries(): Promise<TokenEntry[]> {
    const all = await this.redis.hvals(this.keys.tokens());
    return all
      .map(parseTokenEntry)
      .filter((e): e is TokenEntry => e !== undefined)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

function parseTokenEntry(text: string | null | undefined): TokenEntry | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.id === 'string' && typeof v.agent === 'string' && typeof v.createdAt === 'string' ? { id: v.id, agent: v.agent, createdAt: v.createdAt } : undefined;
}

class RedisBus implements Bus {
  readonly shared = true;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    private readonly channels: Channels,
    readonly replicaId: string,
  ) {}

  async publish<T extends BusTopic>(topic: T, message: BusMessages[T]): Promise<void> {
    await this.redis.publish(this.keys.channel(`bus:${topic}`), JSON.stringify({ from: this.replicaId, message }));
  }

  subscribe<T extends BusTopic>(topic: T, listener: (message: BusMessages[T]) => void): () => void {
    const valid = BUS_SHAPES[topic] as (v: unknown) => v is BusMessages[T];
    return this.channels.listen(`bus:${topic}`, (text) => {
      const v = parseJson(text);
      if (!isObject(v) || v.from === this.replicaId || !valid(v.message)) return;
      listener(v.message);
    });
  }
}

const SESSION_KINDS = new Set(['to-client', 'from-client', 'changed', 'ended']);
const PARKED_KINDS = new Set(['resume', 'accepted', 'outcome']);
const isString = (v: unknown): v is string => typeof v === 'string';

/** Only the shape: the replica that acts on a message checks its content as it would a client's. */
const BUS_SHAPES: { [T in BusTopic]: (v: unknown) => v is BusMessages[T] } = {
  sessions: (v): v is SessionMessage =>
    isObject(v) && typeof v.session === 'string' && SESSION_KINDS.has(String(v.kind)) && (v.kind === 'changed' || v.kind === 'ended' || isObject(v.message)),
  parked: (v): v is ParkedMessage => isObject(v) && PARKED_KINDS.has(String(v.kind)) && isString(v.to) && isString(v.reply),
  sse: (v): v is SseMessage => isObject(v) && isString(v.stream) && isString(v.owner) && isString(v.text),
  pins: (v): v is PinsMessage => isObject(v) && isString(v.server),
};

/** Pins in one hash, a field per server, kind and name: every replica reads and writes the same. */
class RedisPins implements PinStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {}

  async list(server?: string): Promise<DefinitionPin[]> {
    const all = await this.redis.hvals(this.keys.pins()).catch(unreachable(this.redis));
    return all.map((v) => JSON.parse(v) as DefinitionPin).filter((p) => server === undefined || p.server === server);
  }

  async get(server: string, kind: DefinitionPin['kind'], name: string): Promise<DefinitionPin | undefined> {
    const value = await this.redis.hget(this.keys.pins(), pinId({ server, kind, name })).catch(unreachable(this.redis));
    return value === null ? undefined : (JSON.parse(value) as DefinitionPin);
  }

  async put(pins: readonly DefinitionPin[]): Promise<void> {
    if (pins.length === 0) return;
    await this.redis.hset(this.keys.pins(), Object.fromEntries(pins.map((p) => [pinId(p), JSON.stringify(p)]))).catch(unreachable(this.redis));
  }
}
