import type { Gateway } from '../gateway/gateway.js';
import { resolveBearer, type Resolution } from '../identity/principal.js';
import { ADMIN } from '../identity/tokens.js';

/**
 * Who an HTTP or WebSocket client is, from its bearer token. Operator tokens are for the admin API only:
 * they carry no tool permissions, so they are refused here rather than given an empty role.
 */
export async function authenticate(gateway: Gateway, authorization: string | undefined): Promise<Resolution> {
  const who = await resolveBearer(authorization, gateway.config.security, gateway.security.tokens);
  if (who.ok && who.principal.agent === ADMIN) return { ok: false, status: 403, reason: 'operator tokens are for the admin API, not for MCP clients' };
  return who;
}
