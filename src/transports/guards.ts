import type { IncomingMessage } from 'node:http';
import type { GatewayConfig } from '../config/schema.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

function hostnameOf(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding protection: a browser tricked into calling us from a hostile page sends that page's Host and
 * Origin. Only local names (plus what the operator allows) get through. Returns why a request is refused, or
 * undefined when it may proceed.
 */
export function checkLocalRequest(config: GatewayConfig, req: IncomingMessage): string | undefined {
  const hosts = new Set([...LOOPBACK_NAMES, ...config.http.allowedHosts.map((h) => h.toLowerCase())]);
  const listenHost = config.listen.host.toLowerCase();
  if (listenHost !== '0.0.0.0' && listenHost !== '::') hosts.add(listenHost);
  const host = req.headers.host;
  const hostname = host ? hostnameOf(host) : undefined;
  if (!hostname || !hosts.has(hostname)) return `Invalid Host: ${host ?? '(missing)'}`;
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  } catch {
    return `Invalid Origin: ${origin}`;
  }
  const origins = new Set([...hosts, ...config.http.allowedOrigins.map((o) => o.toLowerCase())]);
  return origins.has(originHost) || config.http.allowedOrigins.includes(origin) ? undefined : `Invalid Origin: ${origin}`;
}
