import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Scope } from '../approvals/queue.js';
import type { AuditStore } from '../audit/store.js';
import { verifyStore, type AuditVerification, type Checkpoint } from '../audit/verify.js';
import type { Gateway } from '../gateway/gateway.js';
import { Operator } from '../gateway/operator.js';
import { AmbiguousDefinition, DefinitionDesk, DefinitionNotFound, type DefinitionQuery } from '../gateway/definition-desk.js';
import { StaleDefinition } from '../definitions/guard.js';
import { resolveBearer } from '../identity/principal.js';
import { ADMIN } from '../identity/tokens.js';
import type { Activity } from '../telemetry/activity.js';

const MAX_ADMIN_BODY = 64 * 1024;
const COOKIE = 'sluice_admin';
const CONSOLE_SESSION_MS = 8 * 3600_000;

type Send = (status: number, body: unknown) => void;
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  send: Send;
  url: URL;
}
type Route = (call: Call) => Promise<void> | void;

/**
 * The operator's JSON API under /admin, used by the CLI and the console. Only operator tokens open it,
 * whatever the auth setting for agents: deciding an approval, pausing the gateway or lowering a label is
 * never anonymous, and an agent can never decide its own request. The console logs in once with the token
 * and then uses an HttpOnly, SameSite=Strict cookie (browsers cannot put headers on EventSource).
 */
export class AdminApi {
  private readonly operator: Operator;
  private readonly desk: DefinitionDesk;
  private readonly routes: Record<string, Route>;

  constructor(
    private readonly gateway: Gateway,
    /** Calls per second and latency for the console's charts; unset when metrics are off. */
    activity?: Activity,
  ) {
    this.operator = new Operator(gateway);
    this.desk = new DefinitionDesk(gateway);
    const approvals = gateway.approvals;
    this.routes = {
      'GET /admin/status': async ({ send }) => send(200, await this.operator.status()),
      'GET /admin/activity': async ({ send }) => (activity ? send(200, activity.snapshot()) : send(404, { error: 'metrics are off (metrics.enabled: false): no activity to chart' })),
      'POST /admin/pause': async ({ send }) => send(200, (await this.operator.setPaused(true, ADMIN), { paused: true })),
      'POST /admin/resume': async ({ send }) => send(200, (await this.operator.setPaused(false, ADMIN), { paused: false })),
      'POST /admin/sessions/reset': async ({ req, send }) => {
        const body = (await readJson(req)) as { session?: unknown; agent?: unknown };
        const session = typeof body.session === 'string' ? body.session : undefined;
        const agent = typeof body.agent === 'string' ? body.agent : undefined;
        if (!session && !agent) return send(400, { error: 'name a "session" or an "agent" to reset' });
        send(200, await this.operator.resetLabel({ session, agent }, ADMIN));
      },
      'GET /admin/approvals': async ({ send }) => send(200, { pending: await approvals.list() }),
      'POST /admin/approvals/decide': async ({ req, send }) => {
        const body = (await readJson(req)) as { id?: unknown; decision?: unknown; scope?: unknown; pinArguments?: unknown; expiresInSeconds?: unknown; untilRestart?: unknown; reason?: unknown };
        if (typeof body.id !== 'string') return send(400, { error: '"id" is required' });
        if (body.decision !== 'approve' && body.decision !== 'deny') return send(400, { error: '"decision" must be "approve" or "deny"' });
        const scope = (body.scope ?? 'once') as Scope;
        if (!['once', 'session', 'always'].includes(scope)) return send(400, { error: '"scope" must be once, session or always' });
        try {
          const verdict = await approvals.decide(body.id, {
            approve: body.decision === 'approve',
            scope,
            pinArguments: body.pinArguments === true,
            expiresInSeconds: typeof body.expiresInSeconds === 'number' ? body.expiresInSeconds : undefined,
            untilRestart: body.untilRestart === true,
            reason: typeof body.reason === 'string' ? body.reason : undefined,
            by: 'operator',
          });
          send(200, verdict);
        } catch (err) {
          // The second of two concurrent decisions lands here: the first one won.
          send(409, { error: (err as Error).message });
        }
      },
      'GET /admin/definitions': async ({ send }) => send(200, { definitions: await this.desk.list() }),
      'GET /admin/definitions/diff': async ({ send, url }) => {
        const query = definitionQuery(Object.fromEntries(url.searchParams));
        if (typeof query === 'string') return send(400, { error: query });
        await deskAnswer(send, () => this.desk.diff(query));
      },
      'POST /admin/definitions/decide': async ({ req, send }) => {
        const body = (await readJson(req)) as Record<string, unknown>;
        const query = definitionQuery(body);
        if (typeof query === 'string') return send(400, { error: query });
        if (body.decision !== 'approve' && body.decision !== 'reject') return send(400, { error: '"decision" must be "approve" or "reject"' });
        if (body.hash !== undefined && typeof body.hash !== 'string') return send(400, { error: '"hash" must be a string' });
        await deskAnswer(send, () => this.desk.decide({ ...query, hash: body.hash as string | undefined }, body.decision === 'approve', ADMIN));
      },
      'GET /admin/audit': async ({ send, url }) => {
        const audit = this.gateway.audit;
        if (!audit) return send(404, { error: 'the audit log is off' });
        const q = url.searchParams;
        const records = await audit.store.query({
          agent: q.get('agent') || undefined,
          target: q.get('tool') || undefined,
          outcome: q.get('outcome') || undefined,
          since: q.get('since') || undefined,
          until: q.get('until') || undefined,
          limit: Math.min(1000, Number(q.get('limit') ?? 200) || 200),
          beforeSeq: q.get('before') ? Number(q.get('before')) : undefined,
          newestFirst: true,
        });
        send(200, { records });
      },
      'GET /admin/audit/verify': async ({ send, url }) => {
        const audit = this.gateway.audit;
        if (!audit) return send(404, { error: 'the audit log is off' });
        send(200, await this.verify(audit.store, url.searchParams.get('full') === '1'));
      },
      'GET /admin/events': ({ req, res }) => this.events(req, res),
      'POST /admin/logout': async ({ req, res, send }) => {
        const id = sessionCookie(req);
        if (id) await this.gateway.state.consoleLogins.delete(id);
        res.setHeader('set-cookie', `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=0`);
        send(200, { ok: true });
      },
    };
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const send: Send = (status, body) => {
      if (res.headersSent) return;
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
      res.end(text);
    };
    try {
      if (path === '/admin/login' && req.method === 'POST') return await this.login(req, res, send);
      if (!(await this.authorised(req, send))) return;
      const route = Object.hasOwn(this.routes, `${req.method} ${path}`) ? this.routes[`${req.method} ${path}`] : undefined;
      if (!route) return send(404, { error: `no admin endpoint ${req.method} ${path}` });
      await route({ req, res, send, url: new URL(req.url ?? '/', 'http://localhost') });
    } catch (err) {
      send(400, { error: (err as Error).message });
    }
  }

  private verified?: Checkpoint;
  private lastFullVerify = 0;

  /**
   * Chain status for the console without stalling the gateway on a long log: after one full pass, only new
   * records are checked, with a full pass again every ten minutes (or on request).
   */
  private async verify(store: AuditStore, full: boolean): Promise<AuditVerification> {
    const fresh = full || !this.verified || Date.now() - this.lastFullVerify > 600_000;
    const result = await verifyStore(store, undefined, fresh ? undefined : this.verified);
    if (fresh) this.lastFullVerify = Date.now();
    // The checkpoint is the last record this pass verified, not the head now: records may have landed since.
    this.verified = result.ok ? { seq: result.head.seq, hash: result.head.hash, checked: result.checked } : undefined;
    return result;
  }

  /** An operator token in the Authorization header, or a console session cookie. */
  private async authorised(req: IncomingMessage, send: Send): Promise<boolean> {
    const cookie = sessionCookie(req);
    if (cookie && (await this.gateway.state.consoleLogins.get(cookie))) {
      // SameSite does not tell ports apart: a page on another localhost port is "same-site" and its requests
      // carry the cookie. Only the console's own origin may change anything with it.
      if (req.method === 'GET' || sameOrigin(req)) return true;
      send(403, { error: 'Forbidden: a console request from another origin' });
      return false;
    }
    const who = await resolveBearer(req.headers.authorization, { ...this.gateway.config.security, authRequired: true }, this.gateway.security.tokens);
    if (!who.ok) {
      this.gateway.authFailures.note(req.socket.remoteAddress ?? '', '/admin', who);
      send(401, { error: `Unauthorized: ${who.reason}` });
      return false;
    }
    if (who.principal.agent !== ADMIN) {
      send(403, { error: 'Forbidden: the admin API needs an operator token (sluice token create --admin)' });
      return false;
    }
    return true;
  }

  private async login(req: IncomingMessage, res: ServerResponse, send: Send): Promise<void> {
    const body = (await readJson(req)) as { token?: unknown };
    const token = typeof body.token === 'string' ? body.token : '';
    const who = await resolveBearer(`Bearer ${token}`, { ...this.gateway.config.security, authRequired: true }, this.gateway.security.tokens);
    if (!who.ok || who.principal.agent !== ADMIN) {
      this.gateway.authFailures.note(req.socket.remoteAddress ?? '', '/admin/login', who.ok ? { status: 401, reason: 'not an operator token' } : who);
      return send(401, { error: 'not an operator token' });
    }
    const id = randomBytes(24).toString('base64url');
    await this.gateway.state.consoleLogins.put(id, { createdAt: new Date().toISOString() }, CONSOLE_SESSION_MS);
    res.setHeader('set-cookie', `${COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=${CONSOLE_SESSION_MS / 1000}`);
    send(200, { ok: true });
  }

  /** Server-sent events: a nudge whenever approvals, the audit log or the gateway's state change. */
  private events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(': connected\n\n');
    const push = (event: string) => res.write(`event: ${event}\ndata: {}\n\n`);
    const onApprovals = () => push('approvals');
    const onAudit = () => push('audit');
    const onStatus = () => push('status');
    this.gateway.approvals.on('changed', onApprovals);
    this.gateway.audit?.on('appended', onAudit);
    this.gateway.events.on('status', onStatus);
    const beat = setInterval(() => res.write(': keepalive\n\n'), 20_000);
    beat.unref();
    req.on('close', () => {
      clearInterval(beat);
      this.gateway.approvals.off('changed', onApprovals);
      this.gateway.audit?.off('appended', onAudit);
      this.gateway.events.off('status', onStatus);
    });
  }
}

function sessionCookie(req: IncomingMessage): string | undefined {
  return /(?:^|;\s*)sluice_admin=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? '')?.[1];
}

/** Browsers send Origin with every POST; it must name this very host and port. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin || !req.headers.host) return false;
  try {
    return new URL(origin).host === req.headers.host.toLowerCase();
  } catch {
    return false;
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

/** A definition named in a request: `name`, and optionally `server` and `kind`, all strings. */
function definitionQuery(body: Record<string, unknown>): DefinitionQuery | string {
  const { name, server, kind } = body;
  if (typeof name !== 'string' || name === '') return '"name" is required';
  if ((server !== undefined && typeof server !== 'string') || (kind !== undefined && typeof kind !== 'string')) return '"server" and "kind" must be strings';
  return { name, server: server || undefined, kind: kind || undefined };
}

/** Unknown names are 404, ambiguous ones and stale decisions 409: the operator looks again. */
async function deskAnswer(send: Send, work: () => Promise<unknown>): Promise<void> {
  try {
    send(200, await work());
  } catch (err) {
    if (err instanceof DefinitionNotFound) return send(404, { error: err.message });
    if (err instanceof AmbiguousDefinition || err instanceof StaleDefinition) return send(409, { error: err.message });
    throw err;
  }
}
