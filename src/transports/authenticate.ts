import type { IncomingMessage } from 'node:http';
import type { Gateway } from '../gateway/gateway.js';
import { resolveBearer, type Principal, type Resolution } from '../identity/principal.js';
import { ADMIN, hashToken, SLUICE_TOKEN_PREFIX } from '../identity/tokens.js';

/** The WWW-Authenticate header for a refusal: OAuth's challenge when the gateway is a resource server. */
export function challengeFor(gateway: Gateway, who: Extract<Resolution, { ok: false }>): string | undefined {
  if (gateway.oauth) return gateway.oauth.challenge(who);
  return who.status === 401 ? BEARER_CHALLENGE : undefined;
}

/**
 * The 401 challenge of a gateway that takes only sluice tokens. A bare `Bearer` sends OAuth-aware clients
 * (mcp-remote, the Inspector) looking for OAuth metadata this gateway does not serve (no `auth.oauth`); naming
 * the error and what to send instead tells them — and the person reading their log — to pass a sluice token.
 */
export const BEARER_CHALLENGE =
  'Bearer realm="sluice", error="invalid_token", error_description="this gateway needs a sluice token: send the header Authorization: Bearer <token> (sluice token create <agent>)"';

/**
 * Who an HTTP or WebSocket client is, from its bearer token. Operator tokens are for the admin API only:
 * they carry no tool permissions, so they are refused here rather than given an empty role.
 */
export async function authenticate(gateway: Gateway, authorization: string | undefined): Promise<Resolution> {
  // A bearer token that is not one of sluice's own goes to the authorization server's rules, when there is one.
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (gateway.oauth && gateway.config.security.authRequired && bearer !== undefined && !bearer.startsWith(SLUICE_TOKEN_PREFIX)) return gateway.oauth.resolve(bearer);
  const who = await resolveBearer(authorization, gateway.config.security, gateway.security.tokens);
  if (who.ok && who.principal.agent === ADMIN) return { ok: false, status: 403, reason: 'operator tokens are for the admin API, not for MCP clients' };
  return who;
}

/**
 * Who opened a session: its token (already hashed when it was checked; we never keep tokens). With
 * authentication off, whatever Authorization header the client sent, else its address. A session id presented
 * by anyone else is refused.
 */
export function clientKey(req: IncomingMessage, principal: Principal): string {
  // An OAuth client refreshes its token: its sessions are bound to who it is (issuer + subject), not to one token.
  if (principal.subjectKey) return `oauth:${principal.subjectKey}`;
  if (principal.tokenHash) return `token:${principal.tokenHash}`;
  const auth = req.headers.authorization;
  return auth ? `header:${hashToken(auth)}` : `addr:${req.socket.remoteAddress ?? ''}`;
}
