import picomatch from 'picomatch';
import { splitHostPort } from './host-port.js';
import { DEFAULT_LISTEN, type ConfigInput } from './schema.js';

export interface CrossProblem {
  path: (string | number)[];
  message: string;
  /** Point at this key rather than at the value (for names that are wrong as names). */
  key?: string;
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|localhost)$/;

/** Checks that need more than one part of the file: names that must exist, settings that must agree. */
export function crossCheck(raw: ConfigInput): CrossProblem[] {
  const problems: CrossProblem[] = [];
  const agents = raw.agents ?? {};
  const roles = raw.roles ?? {};
  const roleNames = Object.keys(roles).join(', ') || '(none declared)';
  const agentNames = Object.keys(agents).join(', ') || '(none declared)';

  for (const [name, agent] of Object.entries(agents)) {
    if (!Object.hasOwn(roles, agent.role)) problems.push({ path: ['agents', name, 'role'], message: `unknown role "${agent.role}"; declared roles: ${roleNames}` });
  }
  const auth = raw.auth ?? {};
  for (const key of ['anonymousAgent', 'stdioAgent'] as const) {
    const agent = auth[key];
    if (agent !== undefined && !Object.hasOwn(agents, agent)) problems.push({ path: ['auth', key], message: `unknown agent "${agent}"; declared agents: ${agentNames}` });
  }
  if (auth.required === false) {
    const [host] = splitHostPort(raw.listen ?? DEFAULT_LISTEN);
    if (!LOOPBACK.test(host)) problems.push({ path: ['auth', 'required'], message: `authentication may be switched off only on a loopback address, and listen is ${host}` });
    if (auth.anonymousAgent === undefined) problems.push({ path: ['auth', 'required'], message: 'with authentication off, `auth.anonymousAgent` must name who unauthenticated clients are' });
  }
  for (const [name, server] of Object.entries(raw.mcpServers)) {
    if (server.auth?.tokenExchange && !auth.oauth) problems.push({ path: ['mcpServers', name, 'auth', 'tokenExchange'], message: 'token exchange needs the callers\' OAuth tokens: configure auth.oauth' });
  }
  for (const [scope, role] of Object.entries(auth.oauth?.scopes ?? {})) {
    if (!Object.hasOwn(roles, role)) problems.push({ path: ['auth', 'oauth', 'scopes', scope], message: `unknown role "${role}"; declared roles: ${roleNames}` });
  }
  if (auth.oauth && Object.keys(auth.oauth.scopes).length === 0) problems.push({ path: ['auth', 'oauth', 'scopes'], message: 'map at least one scope to a role: a token with no mapped scope is refused' });
  for (const [name, role] of Object.entries(roles)) {
    for (const glob of [...Object.keys(role.tools ?? {}), ...Object.keys(role.rateLimit?.tools ?? {})]) {
      if (!validGlob(glob)) problems.push({ path: ['roles', name, 'tools'], key: glob, message: `invalid glob "${glob}"` });
    }
  }
  (raw.hooks ?? []).forEach((hook, i) => {
    if (hook.tools !== undefined && !validGlob(hook.tools)) problems.push({ path: ['hooks', i, 'tools'], message: `invalid glob "${hook.tools}"` });
  });
  return problems;
}

function validGlob(glob: string): boolean {
  try {
    picomatch(glob);
    return true;
  } catch {
    return false;
  }
}
