import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer, Outcome } from '../gateway/answer.js';
import type { FrontDoor } from '../gateway/front-door.js';
import type { HttpPost, HttpRequest } from '../gateway/http-request.js';
import type { Principal } from '../identity/principal.js';
import { ErrorCode } from '../protocol/jsonrpc.js';
import { clientKey } from './authenticate.js';
import { jsonError, readJsonBody, reply } from './http-io.js';
import { EventStream, Exchange } from './sse.js';

/** The status that says each outcome of the front door. */
const STATUS: Record<Outcome, number> = { ok: 200, accepted: 202, refused: 400, 'not-found': 404, conflict: 409 };

/**
 * Streamable HTTP at /mcp, once the caller is known (http-front.ts): a POST's body goes to the front door and
 * its answer comes back as a status and JSON, or as SSE when something belonging to the request goes out
 * before it; GET opens a legacy session's event stream, DELETE ends the session. Our own node:http code
 * rather than the SDK's server transport: it is the hot path, and a thin front with plain JSON answers costs
 * a fraction of the SDK's per-request conversions (see docs/architecture.md).
 */
export class StreamableHttp {
  constructor(
    private readonly front: FrontDoor,
    private readonly maxBodyBytes: number,
  ) {}

  handle(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> | void {
    if (req.method === 'POST') return this.post(req, res, principal);
    if (req.method === 'GET') return this.get(req, res, principal);
    if (req.method === 'DELETE') return this.delete(req, res, principal);
    reply(res, { ...jsonError(405, ErrorCode.TransportError, `Method not allowed: ${req.method}`), headers: { allow: 'GET, POST, DELETE' } });
  }

  private async post(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    const text = await readJsonBody(req, res, this.maxBodyBytes);
    if (text === undefined) return;
    const post = new Post(req, res, principal);
    const answer = await this.front.receive(text, post);
    if (answer.body === undefined) return reply(res, { status: STATUS[answer.outcome] });
    post.finish(answer.body, STATUS[answer.outcome], answer.sessionId === undefined ? undefined : { 'mcp-session-id': answer.sessionId });
  }

  /** The legacy session's stream for what the server says unprompted. */
  private async get(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    if (!/text\/event-stream/i.test(req.headers.accept ?? '')) {
      return reply(res, jsonError(406, ErrorCode.TransportError, 'Not Acceptable: GET /mcp needs Accept: text/event-stream'));
    }
    const refused = await this.front.legacy.listen(requestOf(req, principal), () => new EventStream(res));
    if (refused) send(res, refused);
  }

  private async delete(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    send(res, await this.front.legacy.end(requestOf(req, principal)));
  }
}

/**
 * One POST to /mcp as the front door sees it: who sent it, its headers, and its own response (an Exchange),
 * where what belongs to its request goes before the answer. One object per request: this is the hot path.
 */
class Post extends Exchange implements HttpPost {
  constructor(
    private readonly req: IncomingMessage,
    res: ServerResponse,
    readonly principal: Principal,
  ) {
    super(res, /text\/event-stream/i.test(req.headers.accept ?? ''));
  }

  get headers(): IncomingMessage['headers'] {
    return this.req.headers;
  }

  /** Asked only of a request for a legacy session (a stateless one has no owner to check). */
  get owner(): string {
    return clientKey(this.req, this.principal);
  }

  get stream(): Exchange {
    return this;
  }
}

function requestOf(req: IncomingMessage, principal: Principal): HttpRequest {
  return { principal, owner: clientKey(req, principal), headers: req.headers };
}

function send(res: ServerResponse, answer: Answer): void {
  reply(res, { status: STATUS[answer.outcome], body: answer.body });
}
