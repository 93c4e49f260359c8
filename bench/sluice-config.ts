import { EVERYTHING } from './paths.js';

/**
 * The two sluice configurations the bench compares. Both have one stdio upstream (server-everything) and
 * warnings-only logging; they differ only in security.
 *
 * - `sluice` (security on): authentication on (a bearer token for an agent) and a role as a real deployment
 *   would write it: unlisted tools need approval, the upstream's tools are allowed but one is denied, path
 *   rules, the default content filters; the audit log at its default (on). `everything__echo` is allowed, so
 *   each call passes the whole chokepoint (token, rate limit, tool rule, operation, paths, information flow,
 *   filters, audit record).
 * - `sluice-open` (security off): no authentication (an anonymous agent, allowed on loopback only), a role
 *   that allows everything with every filter off and no rules or rate limit, and no audit log: the cheapest
 *   the pipeline can be.
 */
export function sluiceConfig(secure: boolean, tokensFile: string, audit = true): string[] {
  const upstream = [
    'mcpServers:',
    '  everything:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(EVERYTHING)}, stdio]`,
  ];
  if (!secure) {
    return [
      'logLevel: warn',
      'auth: { required: false, anonymousAgent: bench }',
      'audit: { enabled: false }',
      'agents:',
      '  bench: { role: bench }',
      'roles:',
      '  bench: { default: allow, onFlowViolation: allow, filters: { secret: off, pii: off, injection: off } }',
      ...upstream,
    ];
  }
  return [
    'logLevel: warn',
    ...(audit ? [] : ['audit: { enabled: false }']),
    'auth:',
    `  tokensFile: ${JSON.stringify(tokensFile)}`,
    'agents:',
    '  bench: { role: bench }',
    'roles:',
    '  bench:',
    '    default: approve',
    '    tools:',
    '      "everything__*": allow',
    '      "everything__get-env": deny',
    '    paths: { allow: ["/tmp/**"] }',
    '    filters: { secret: redact, pii: label, injection: label }',
    ...upstream,
  ];
}
