import type { IncomingMessage } from 'node:http';
import type { GatewayConfig } from '../config/schema.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The hostname of a Host header or an Origin's authority, lower-cased, without port or IPv6 brackets. */
function hostnameOf(authority: string): string {
  const a = authority.toLowerCase();
  if (a.startsWith('[')) return a.slice(1, a.indexOf(']'));
  const colon = a.indexOf(':');
  return colon === -1 ? a : a.slice(0, colon);
}

interface Allowed {
  hosts: Set<string>;
  origins: Set<string>;
  exactOrigins: Set<string>;
}

// Built once per config: this check runs on every request.
const allowedByConfig = new WeakMap<GatewayConfig, Allowed>();

function allowedFor(config: GatewayConfig): Allowed {
  let allowed = allowedByConfig.get(config);
  if (!allowed) {
    const hosts = new Set([...LOOPBACK_NAMES, ...config.http.allowedHosts.map((h) => h.toLowerCase())]);
    const listenHost = config.listen.host.toLowerCase();
    if (listenHost !== '0.0.0.0' && listenHost !== '::') hosts.add(listenHost);
    const origins = new Set([...hosts, ...config.http.allowedOrigins.map((o) => o.toLowerCase())]);
    allowed = { hosts, origins, exactOrigins: new Set(config.http.allowedOrigins) };
    allowedByConfig.set(config, allowed);
  }
  return allowed;
}

/**
 * DNS-rebinding protection: a browser tricked into calling us from a hostile page sends that page's Host and
 * Origin. Only local names (plus what the operator allows) get through. Returns why a request is refused, or
 * undefined when it may proceed.
 */
export function checkLocalRequest(config: GatewayConfig, req: IncomingMessage): string | undefined {
  const allowed = allowedFor(config);
  const host = req.headers.host;
  if (!host || !allowed.hosts.has(hostnameOf(host))) return `Invalid Host: ${host ?? '(missing)'}`;
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return undefined;
  if (allowed.exactOrigins.has(origin)) return undefined;
  const scheme = origin.indexOf('://');
  if (scheme === -1) return `Invalid Origin: ${origin}`;
  const authority = origin.slice(scheme + 3).split('/')[0];
  return allowed.origins.has(hostnameOf(authority.slice(authority.lastIndexOf('@') + 1))) ? undefined : `Invalid Origin: ${origin}`;
}
