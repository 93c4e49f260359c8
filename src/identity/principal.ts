import type { SecurityConfig } from '../config/schema.js';
import type { TokenStore } from '../state/ports.js';
import { ADMIN, hashToken, tokenFingerprint } from './tokens.js';

/** Who is calling, resolved once per connection or request by the transport. */
export interface Principal {
  /**
   * The identity key: what every piece of state is keyed by (labels, rate buckets, grants, parked calls,
   * session records) and what the audit log names. A declared agent's name from config (or the operator's);
   * for an OAuth identity `issuer#subject` (see `oauthIdentity`), which no declared name can equal.
   */
  agent: string;
  /** For people: the OAuth subject as the issuer gave it (unset: `agent`, a declared name). Never a key. */
  name?: string;
  /** The role that agent has; undefined for the operator, who has no tool permissions. */
  role?: string;
  /** How the identity was established. */
  via: 'token' | 'stdio' | 'anonymous' | 'oauth';
  /** Hash of the token used, to bind sessions to it. */
  tokenHash?: string;
  /** For OAuth: the issuer of the token, and the hash of issuer + subject that binds HTTP sessions to that identity. */
  issuer?: string;
  subjectKey?: string;
}

/** The role of a declared agent; the name may come from a token file, so it is looked up as an own property only. */
function roleOf(security: SecurityConfig, agent: string): string | undefined {
  return Object.hasOwn(security.agents, agent) ? security.agents[agent].role : undefined;
}

export type Resolution =
  | { ok: true; principal: Principal }
  | { ok: false; status: 401 | 403; reason: string; /** A fingerprint of the token presented, for the record (never the token). */ token?: string };

/**
 * Resolves an `Authorization` header to a principal. No header and no valid token is a refusal — never a
 * fallback to some default — unless authentication was switched off in config, in which case everyone is
 * the configured anonymous agent.
 */
export async function resolveBearer(header: string | undefined, security: SecurityConfig, tokens: TokenStore): Promise<Resolution> {
  if (!security.authRequired) {
    const agent = security.anonymousAgent as string;
    return { ok: true, principal: { agent, role: roleOf(security, agent), via: 'anonymous' } };
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return { ok: false, status: 401, reason: header ? 'malformed Authorization header; expected "Bearer <token>"' : 'missing bearer token' };
  const token = match[1];
  let agent: string | undefined;
  try {
    agent = await tokens.agentFor(token);
  } catch (err) {
    // A token store that cannot answer says no.
    return { ok: false, status: 401, reason: (err as Error).message, token: tokenFingerprint(token) };
  }
  if (!agent) return { ok: false, status: 401, reason: 'invalid token', token: tokenFingerprint(token) };
  if (agent === ADMIN) return { ok: true, principal: { agent, via: 'token', tokenHash: hashToken(token) } };
  const role = roleOf(security, agent);
  // A token for an agent that was since removed from the config is no longer anyone.
  if (!role) return { ok: false, status: 401, reason: `token belongs to agent "${agent}", which the config no longer declares`, token: tokenFingerprint(token) };
  return { ok: true, principal: { agent, role, via: 'token', tokenHash: hashToken(token) } };
}

/** The identity of a stdio client: whoever the config names for it. */
export function stdioPrincipal(security: SecurityConfig): Principal | undefined {
  const agent = security.stdioAgent ?? (security.authRequired ? undefined : security.anonymousAgent);
  if (!agent) return undefined;
  return { agent, role: roleOf(security, agent), via: 'stdio' };
}

/**
 * The identity key of an OAuth subject: its issuer, `#`, its subject. A subject `alice` is not the declared
 * agent `alice`: declared names hold only A-Z a-z 0-9 _ . - (config validation), while this key holds the
 * issuer's `://`. Nor can one subject spell another's key: the issuer has no `#` (config validation, as RFC
 * 8414 says), so the first `#` ends it.
 */
export function oauthIdentity(issuer: string, subject: string): string {
  return `${issuer}#${subject}`;
}

/** What to call a principal when speaking to people. */
export function displayName(principal: Principal): string {
  return principal.name ?? principal.agent;
}
