import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from '../gateway/gateway.js';
import { resolveBearer } from '../identity/principal.js';
import { ADMIN } from '../identity/tokens.js';
import type { GatewayMetrics } from '../telemetry/metrics.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * GET /metrics, the Prometheus text exposition. Who may read it: with `metrics.access: loopback` (the default)
 * a peer on loopback needs nothing and anyone else an operator token; with `operator`, everyone needs one —
 * the setting for a gateway behind a proxy on the same machine, whose requests all come from loopback.
 */
export async function serveMetrics(gateway: Gateway, metrics: GatewayMetrics, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
  const fromLoopback = LOOPBACK.test(req.socket.remoteAddress ?? '');
  if (!(gateway.config.metrics.access === 'loopback' && fromLoopback)) {
    const who = await resolveBearer(req.headers.authorization, { ...gateway.config.security, authRequired: true }, gateway.security.tokens);
    if (!who.ok || who.principal.agent !== ADMIN) {
      gateway.authFailures.note(req.socket.remoteAddress ?? '', '/metrics', who.ok ? { status: 403, reason: 'not an operator token' } : who);
      const status = who.ok ? 403 : 401;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...(status === 401 ? { 'www-authenticate': 'Bearer realm="sluice metrics"' } : {}) });
      return void res.end(`${status === 401 ? 'Unauthorized' : 'Forbidden'}: /metrics needs an operator token (sluice token create --admin)${gateway.config.metrics.access === 'loopback' ? ' from anywhere but loopback' : ''}\n`);
    }
  }
  const text = await metrics.text();
  res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
  res.end(text);
}
