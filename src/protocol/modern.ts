import type { JsonRpcMessage, Params } from './jsonrpc.js';
import { MODERN_VERSION } from './versions.js';

/** `_meta` keys of the stateless revision: each request says who is calling and what it can do. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

/** Errors the 2026-07-28 revision adds. */
export const ModernError = {
  HeaderMismatch: -32020,
  MissingClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** Methods that exist in the stateless revision; anything else is "method not found" (HTTP 404). */
export const MODERN_METHODS = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'subscriptions/listen',
]);

/** Results that clients may cache, which therefore must say for how long and for whom. */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

/** The protocol version a message claims in its `_meta` envelope, if any: the claim is what makes it modern. */
export function claimedVersion(message: JsonRpcMessage): string | undefined {
  const params = (message as { params?: Params }).params;
  const meta = params?._meta as Params | undefined;
  const v = meta?.[META.protocolVersion];
  return typeof v === 'string' ? v : undefined;
}

export interface Envelope {
  protocolVersion: string;
  clientCapabilities: Params;
  clientInfo?: Params;
}

/** Reads and checks the per-request envelope; returns a problem description when it is unusable. */
export function readEnvelope(params: Params | undefined): Envelope | { problem: string; key: string } {
  const meta = (params?._meta ?? {}) as Params;
  const version = meta[META.protocolVersion];
  const caps = meta[META.clientCapabilities];
  const info = meta[META.clientInfo];
  if (typeof version !== 'string') return { key: META.protocolVersion, problem: 'missing' };
  if (caps === undefined) return { key: META.clientCapabilities, problem: 'missing' };
  if (caps === null || typeof caps !== 'object' || Array.isArray(caps)) return { key: META.clientCapabilities, problem: 'must be an object' };
  if (info !== undefined && (info === null || typeof info !== 'object')) return { key: META.clientInfo, problem: 'must be an object' };
  return { protocolVersion: version, clientCapabilities: caps as Params, clientInfo: info as Params | undefined };
}

export function isModernVersion(version: string): boolean {
  return version === MODERN_VERSION;
}

/** Adds what every 2026-07-28 result must carry: its kind, cache hints where needed, and who answered. */
export function decorateModernResult(method: string, result: Params, serverInfo: Params): Params {
  const out: Params = { ...result, resultType: result.resultType ?? 'complete' };
  if (CACHEABLE.has(method)) {
    out.ttlMs ??= 0;
    out.cacheScope ??= 'private';
  }
  out._meta = { ...((result._meta) ?? {}), [META.serverInfo]: serverInfo };
  return out;
}

/** Removes the envelope keys before params travel on to a (legacy) upstream, which has no use for them. */
export function stripEnvelope(meta: Params): Params | undefined {
  // Built from entries, not by assignment: a client's `__proto__` key must stay a key, never become a prototype.
  const kept = Object.entries(meta).filter(([key]) => !key.startsWith('io.modelcontextprotocol/'));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}
