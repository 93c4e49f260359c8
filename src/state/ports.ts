import type { Bucket } from '../config/schema.js';
import type { Label } from '../ifc/label.js';

/**
 * The ports for everything that must outlive a request or be shared by replicas. Every method is async and
 * every value crosses by copy (plain data, never a live object), so an embedded store (SQLite in the data
 * dir), an in-memory one (tests) and a networked one (Redis, for clusters) fit behind them alike. One
 * contract suite (test/contracts/state.ts) runs against every implementation.
 */

/** Whose label a request carries: a legacy session, or — stateless — its identity. */
export interface LabelHolder {
  id: string;
  agent: string;
  /** Stateless requests have no session: their label is their identity's high-water mark. */
  stateless: boolean;
  /**
   * The role keeps its sessions apart (`isolateSessions`): a session's label is its own, not raised by what
   * the agent's other sessions read. Off by default: an agent is one actor.
   */
  isolated?: boolean;
}

/**
 * Session labels and each identity's high-water mark. A label only rises. What a session holds is the join of
 * its own label and its agent's mark — an agent is one actor, so a session opened before another one read
 * something secret is raised by it too — unless its role isolates sessions, where a session starts at the
 * mark and then rises only by what it reads itself. Re-initialising, reconnecting, switching transport or
 * restarting the gateway never lowers a label; only an operator reset does.
 */
export interface LabelStore {
  of(holder: LabelHolder): Promise<Label>;
  /** Joins `seen` into the holder's label and its identity's mark; returns the label before and after. */
  raise(holder: LabelHolder, seen: Label): Promise<{ before: Label; after: Label }>;
  /** A session ended: its own label goes (its identity's mark stays). */
  forget(sessionId: string): Promise<void>;
  /** Operator action: one session back to the bottom, or an identity's mark and the sessions named. */
  reset(target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]): Promise<void>;
  /** Every identity's mark, for the operator. */
  identities(): Promise<[agent: string, label: Label][]>;
}

export interface BucketTake {
  key: string;
  bucket: Bucket;
}

export type TakeResult = { ok: true } | { ok: false; /** Which of the buckets was empty. */ index: number; retryAfterMs: number };

/** Token buckets. One call checks every bucket of a request before it takes from any: all or nothing. */
export interface RateLimitStore {
  take(buckets: readonly BucketTake[]): Promise<TakeResult>;
}

/** Operator switches that every request consults. */
export const SWITCHES = ['paused'] as const;
export type SwitchName = (typeof SWITCHES)[number];

export interface SwitchStore {
  get(name: SwitchName): Promise<boolean>;
  set(name: SwitchName, on: boolean): Promise<void>;
  /** Tells `listener` about every change (made here or, for a networked store, anywhere). Returns an unsubscribe. */
  watch(listener: (name: SwitchName, on: boolean) => void): () => void;
}

/** A call waiting for a human. What the console and `sluice approvals list` show. */
export interface PendingApproval {
  id: string;
  agent: string;
  session: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** The tool's required properties (from its definition): what a reviewer is shown first. */
  required?: string[];
  label: string;
  step: string;
  reason: string;
  requestedAt: string;
  expiresAt: string;
  /** What a grant made from this request pins: the tool's definition and the exact arguments. */
  definitionHash: string;
  argumentsHash: string;
}

export interface ApprovalVerdict {
  granted: boolean;
  outcome: 'granted' | 'denied' | 'expired';
  by: string;
  reason?: string;
}

/** A standing permission from an earlier "approve for this session / always". */
export interface Grant {
  agent: string;
  tool: string;
  scope: 'session' | 'always';
  session?: string;
  /** When set, the grant covers only calls with exactly these arguments. */
  argumentsHash?: string;
  /** The tool's definition when it was approved: a changed tool is not the tool that was approved. */
  definitionHash: string;
  /** Epoch ms; unset: no expiry. */
  expiresAt?: number;
  /**
   * Set: the grant lasts only while the gateway process that made it runs ("until restart"). Each process has
   * an id of its own, so after a restart such a grant matches no call, wherever it is stored.
   */
  process?: string;
}

/**
 * Approval requests, their decisions and the grants they leave. A request is settled exactly once, wherever
 * the decision is made; whoever waits for it wakes.
 */
export interface ApprovalStore {
  add(pending: PendingApproval): Promise<void>;
  list(): Promise<PendingApproval[]>;
  /** Settles a request with its verdict: the request for the first verdict, undefined if it was already settled or unknown. */
  settle(id: string, verdict: ApprovalVerdict): Promise<PendingApproval | undefined>;
  /** Resolves with the verdict once `id` is settled. */
  wait(id: string): Promise<ApprovalVerdict>;
  addGrant(grant: Grant): Promise<void>;
  /** The unexpired grants for one agent and tool. */
  grants(agent: string, tool: string): Promise<Grant[]>;
  /** A session ended: its session grants go; returns its pending requests (the caller settles them). */
  endSession(session: string): Promise<PendingApproval[]>;
  /** Tells `listener` whenever a request is added or settled (here or, for a networked store, anywhere). */
  watch(listener: () => void): () => void;
}

/**
 * Short-lived records by key with an expiry: legacy HTTP sessions, console logins. Values are plain JSON.
 */
export interface RecordStore<T> {
  get(key: string): Promise<T | undefined>;
  put(key: string, value: T, ttlMs: number): Promise<void>;
  /** Pushes out the expiry of a record that is still there, leaving its value as whoever wrote it last left it. */
  touch(key: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What a legacy (initialize) session needs to continue on any instance, or after a restart. */
export interface SessionRecord {
  id: string;
  /** Who opened it (token hash, header hash or address): nobody else may use it. */
  owner: string;
  agent: string;
  role?: string;
  via: 'token' | 'stdio' | 'anonymous' | 'oauth';
  tokenHash?: string;
  transport: 'http';
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  logLevel?: string;
  /** The resource URIs it subscribed to: whichever replica holds its stream serves them. */
  subscriptions?: string[];
}

/** An open HTTP+SSE (2024-11-05) stream: who opened it, and which replica holds it. */
export interface SseStreamRecord {
  owner: string;
  replica: string;
}

/** A console login: who may use the cookie until when is in the store's expiry. */
export interface ConsoleLogin {
  createdAt: string;
}

export interface TokenEntry {
  id: string;
  agent: string;
  createdAt: string;
}

/** Bearer tokens. Only hashes are ever kept; a token is seen once, when it is issued. */
export interface TokenStore {
  agentFor(token: string): Promise<string | undefined>;
  issue(agent: string): Promise<{ token: string; id: string }>;
  entries(): Promise<TokenEntry[]>;
}

/**
 * What one replica tells the others: a notification for a client whose stream is held elsewhere, a session
 * that changed or ended, a stateless call to resume where it is parked. Delivery is at most once (pub/sub):
 * nothing that guards a call depends on it — checks read the stores. A listener hears only the other
 * replicas, never its own messages.
 */
export interface Bus {
  /** This replica's id, unique per process. */
  readonly replicaId: string;
  /** False for a single process's stores: there is nobody else to tell. */
  readonly shared: boolean;
  publish<T extends BusTopic>(topic: T, message: BusMessages[T]): Promise<void>;
  subscribe<T extends BusTopic>(topic: T, listener: (message: BusMessages[T]) => void): () => void;
}

export interface BusMessages {
  sessions: SessionMessage;
  parked: ParkedMessage;
  sse: SseMessage;
  /** Definition pins changed (a review, an operator's decision): the others reload them and rebuild. */
  pins: PinsMessage;
}

export interface PinsMessage {
  server: string;
}

/** A POST to /messages that reached another replica than the one holding its stream. */
export interface SseMessage {
  stream: string;
  owner: string;
  /** The POST's body, as received (one message or a batch). */
  text: string;
}
export type BusTopic = keyof BusMessages;

/** A plain-JSON message about one legacy session. */
export interface SessionMessage {
  session: string;
  /**
   * to-client: a message for the client, for whichever replica holds its stream. from-client: a message from
   * the client this replica could not place (an answer to a request another replica sent, a cancellation of
   * a call running elsewhere). changed: its stored record changed (log level, subscriptions). ended: it ended.
   */
  kind: 'to-client' | 'from-client' | 'changed' | 'ended';
  /** For to-client and from-client: the JSON-RPC message. */
  message?: Record<string, unknown>;
}

/**
 * A stateless call parked on one replica (its upstream asked the client something) and resumed through
 * another: `resume` carries the client's answers to the replica `to`, which says `accepted` at once and the
 * `outcome` when the upstream answers or asks again.
 */
export interface ParkedMessage {
  kind: 'resume' | 'accepted' | 'outcome';
  /** The replica the message is for. */
  to: string;
  /** Pairs the replies with their request. */
  reply: string;
  from?: string;
  requestState?: string;
  method?: string;
  agent?: string;
  /** What the parked call is bound to beside method and agent (see ParkedBinding). */
  target?: string;
  digest?: string;
  answers?: Record<string, unknown>;
  result?: Record<string, unknown>;
  questions?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * What sluice knows of one definition an upstream offers (a tool, prompt, resource, resource template, or a
 * server's instructions): its pin as last seen, what was last trusted, and whether it may be shown.
 */
export interface DefinitionPin {
  server: string;
  /** `server`: the server itself was enrolled (every configured server at the very first start). */
  kind: 'tool' | 'prompt' | 'resource' | 'resource-template' | 'instructions' | 'server';
  name: string;
  /** The pin (hash) of the definition as last seen, and that definition, for diffs. */
  hash: string;
  definition: unknown;
  /** What was last trusted, by the first start or an operator; unset while nothing was. */
  trustedHash?: string;
  /** The definition last trusted, kept only while it differs from `definition` (see `trustedDefinition`). */
  trusted?: unknown;
  status: 'trusted' | 'quarantined' | 'rejected';
  /** What the definition scanner found in the definition as last seen. */
  findings: { rule: string; severity: string; where: string; evidence: string }[];
  firstSeen: string;
  changedAt: string;
  /** When the server stopped offering it (unset while it does); its pins stay, for its return. */
  removedAt?: string;
}

/** The definition last trusted: `definition` itself when that is the trusted one, else `trusted`. */
export function trustedDefinition(pin: DefinitionPin): unknown {
  if (pin.trustedHash === undefined) return undefined;
  return pin.trustedHash === pin.hash ? pin.definition : pin.trusted;
}

/** Definition pins: they survive restarts and every replica sees the same. */
export interface PinStore {
  /** Every pin, or one server's, in no particular order. */
  list(server?: string): Promise<DefinitionPin[]>;
  get(server: string, kind: DefinitionPin['kind'], name: string): Promise<DefinitionPin | undefined>;
  /** Writes pins (a discovery's results, an operator's decision); a pin with the same server, kind and name is replaced. */
  put(pins: readonly DefinitionPin[]): Promise<void>;
}

/** One key per server, kind and name. */
export const pinId = (p: Pick<DefinitionPin, 'server' | 'kind' | 'name'>) => `${p.server}\u0000${p.kind}\u0000${p.name}`;

/** Every state port, as the composition root hands them out. */
export interface StateStores {
  labels: LabelStore;
  limits: RateLimitStore;
  switches: SwitchStore;
  approvals: ApprovalStore;
  sessions: RecordStore<SessionRecord>;
  consoleLogins: RecordStore<ConsoleLogin>;
  /** Open 2024-11-05 SSE streams, so a POST reaching another replica finds the one holding the stream. */
  sseStreams: RecordStore<SseStreamRecord>;
  /** Seals what clients carry back (stateless `requestState`) so any instance can check it. */
  sealKey: Buffer;
  /** Messages between replicas; a single-process store has no other replica to tell. */
  bus: Bus;
  pins: PinStore;
  /** A shared store's own token store; unset: the token file in the data dir. */
  tokens?: TokenStore;
  close(): Promise<void>;
}
