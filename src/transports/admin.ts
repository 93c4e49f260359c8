import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gateway } from '../gateway/gateway.js';
import { Operator } from '../gateway/operator.js';
import { resolveBearer } from '../identity/principal.js';
import { ADMIN, hashToken } from '../identity/tokens.js';

const MAX_ADMIN_BODY = 64 * 1024;

/**
 * The operator's JSON API under /admin, used by the CLI (and later the console). Only operator tokens open
 * it, whatever the auth setting for agents: pausing the gateway or lowering a label is never anonymous.
 */
export class AdminApi {
  private readonly operator: Operator;

  constructor(private readonly gateway: Gateway) {
    this.operator = new Operator(gateway);
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const security = this.gateway.security;
    const who = resolveBearer(req.headers.authorization, { ...this.gateway.config.security, authRequired: true }, security.tokens, hashToken);
    if (!who.ok) return send(401, { error: `Unauthorized: ${who.reason}` });
    if (who.principal.agent !== ADMIN) return send(403, { error: 'Forbidden: the admin API needs an operator token (sluice token create --admin)' });
    const by = ADMIN;
    try {
      if (req.method === 'GET' && path === '/admin/status') return send(200, this.operator.status());
      if (req.method === 'POST' && path === '/admin/pause') return send(200, (await this.operator.setPaused(true, by), { paused: true }));
      if (req.method === 'POST' && path === '/admin/resume') return send(200, (await this.operator.setPaused(false, by), { paused: false }));
      if (req.method === 'POST' && path === '/admin/sessions/reset') {
        const body = (await readJson(req)) as { session?: unknown; agent?: unknown };
        const session = typeof body.session === 'string' ? body.session : undefined;
        const agent = typeof body.agent === 'string' ? body.agent : undefined;
        if (!session && !agent) return send(400, { error: 'name a "session" or an "agent" to reset' });
        return send(200, await this.operator.resetLabel({ session, agent }, by));
      }
      return send(404, { error: `no admin endpoint ${req.method} ${path}` });
    } catch (err) {
      return send(400, { error: (err as Error).message });
    }
  }
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
      if (body.length > MAX_ADMIN_BODY) reject(new Error('request body too large'));
    });
    req.on('end', () => {
      try {
        resolve(body ? JSON.parse(body) : {});
      } catch {
        reject(new Error('request body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}
