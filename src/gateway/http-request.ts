import type { Principal } from '../identity/principal.js';
import type { RequestStream } from './session-streams.js';

/**
 * A Streamable HTTP request as the front door sees it. There is no connection: the headers name the session
 * (Mcp-Session-Id), or the message claims the stateless revision and needs none.
 */
export interface HttpRequest {
  readonly principal: Principal;
  /** Who the client is, which its sessions are bound to (see legacy-sessions.ts). */
  readonly owner: string;
  /** The request's headers, names lower-cased (as node:http gives them). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A POST: its own response is where what belongs to its request goes before the answer (SSE when the client takes it). */
export interface HttpPost extends HttpRequest {
  readonly stream: RequestStream;
}

export function header(request: HttpRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
