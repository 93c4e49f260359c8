import path from 'node:path';
import type { Label } from '../ifc/label.js';
import { OAUTH_ALGORITHMS } from './security-schema.js';
import type { RawConfig, RawServer, RoleConfig, SecurityConfig, ServerCommon } from './schema.js';

/** Data from an upstream is untrusted unless the operator says otherwise. */
const UPSTREAM_DEFAULT: Label = { integrity: 'untrusted', confidentiality: 'public' };

function label(raw: { integrity?: Label['integrity']; confidentiality?: Label['confidentiality'] } | undefined, base: Label): Label {
  return { integrity: raw?.integrity ?? base.integrity, confidentiality: raw?.confidentiality ?? base.confidentiality };
}

export function normaliseSecurity(raw: RawConfig, baseDir: string): SecurityConfig {
  const roles: Record<string, RoleConfig> = {};
  for (const [name, r] of Object.entries(raw.roles ?? {})) {
    roles[name] = {
      name,
      // Unset means a human decides: the safe default when nobody wrote a rule.
      default: r.default ?? 'approve',
      tools: Object.entries(r.tools ?? {}),
      readOnly: r.readOnly ?? false,
      isolateSessions: r.isolateSessions ?? false,
      // Relative path globs mean "relative to the config file", like every other path in it.
      paths: { allow: (r.paths?.allow ?? []).map((g) => absoluteGlob(g, baseDir)), deny: (r.paths?.deny ?? []).map((g) => absoluteGlob(g, baseDir)) },
      resources: { allow: r.resources?.allow ?? [], deny: r.resources?.deny ?? [] },
      urls: { allow: r.urls?.allow ?? [], deny: r.urls?.deny ?? [], freeText: r.urls?.freeText ?? 'values' },
      onFlowViolation: r.onFlowViolation ?? 'deny',
      filters: { secret: r.filters?.secret ?? 'redact', pii: r.filters?.pii ?? 'label', injection: r.filters?.injection ?? 'label' },
      rateLimit: r.rateLimit && {
        perSecond: r.rateLimit.perSecond,
        burst: r.rateLimit.burst ?? Math.max(1, Math.ceil(r.rateLimit.perSecond)),
        tools: Object.entries(r.rateLimit.tools ?? {}).map(([glob, b]) => [glob, { perSecond: b.perSecond, burst: b.burst ?? Math.max(1, Math.ceil(b.perSecond)) }]),
      },
    };
  }
  const oauth = raw.auth?.oauth;
  return {
    authRequired: raw.auth?.required ?? true,
    oauth: oauth && {
      issuer: oauth.issuer,
      audience: oauth.audience,
      scopes: Object.entries(oauth.scopes),
      algorithms: oauth.algorithms ?? [...OAUTH_ALGORITHMS],
      clockSkewSeconds: oauth.clockSkewSeconds ?? 30,
      jwksCooldownMs: (oauth.jwksCooldownSeconds ?? 30) * 1000,
      introspection: oauth.introspection,
    },
    anonymousAgent: raw.auth?.anonymousAgent,
    stdioAgent: raw.auth?.stdioAgent,
    tokensFile: path.resolve(baseDir, raw.auth?.tokensFile ?? path.join(raw.dataDir ?? '.sluice', 'tokens.json')),
    agents: Object.fromEntries(Object.entries(raw.agents ?? {}).map(([n, a]) => [n, { role: a.role }])),
    roles,
    hooks: (raw.hooks ?? []).map((h) => ({ module: path.resolve(baseDir, h.module), stage: h.stage, tools: h.tools, timeoutMs: h.timeoutMs ?? 2000 })),
    audit: {
      enabled: raw.audit?.enabled ?? true,
      file: path.resolve(baseDir, raw.audit?.file ?? path.join(raw.dataDir ?? '.sluice', 'audit.db')),
      synchronous: raw.audit?.synchronous ?? 'normal',
      maxFieldBytes: raw.audit?.maxFieldBytes ?? 1024,
      signIntervalMs: (raw.audit?.signIntervalSeconds ?? 60) * 1000,
      retentionMs: raw.audit?.retentionDays !== undefined ? raw.audit.retentionDays * 86_400_000 : undefined,
      commitTimeoutMs: (raw.audit?.commitTimeoutSeconds ?? 30) * 1000,
      maxQueue: raw.audit?.maxQueue ?? 100_000,
      url: raw.audit?.url,
      signingKeyFile: path.resolve(baseDir, raw.audit?.signingKeyFile ?? path.join(raw.dataDir ?? '.sluice', 'audit-signing-key.pem')),
    },
    approvals: {
      timeoutMs: (raw.approvals?.timeoutSeconds ?? 120) * 1000,
      askClient: raw.approvals?.askClient ?? false,
      keepAliveMs: (raw.approvals?.keepAliveSeconds ?? 10) * 1000,
    },
  };
}

export function serverSecurity(s: RawServer, baseDir: string): Pick<ServerCommon, 'label' | 'openWorld' | 'trustedPaths' | 'tools' | 'resources'> {
  const base = label(s.label, UPSTREAM_DEFAULT);
  return {
    label: base,
    openWorld: s.openWorld,
    trustedPaths: (s.trustedPaths ?? []).map((p) => absoluteGlob(p, baseDir)),
    tools: Object.fromEntries(
      Object.entries(s.tools ?? {}).map(([name, t]) => [name, { ...t, label: t.label ? label(t.label, base) : undefined }]),
    ),
    resources: Object.entries(s.resources ?? {}).map(([glob, r]) => [glob, label(r.label, base)]),
  };
}


function absoluteGlob(glob: string, baseDir: string): string {
  return glob.startsWith('**') ? glob : path.resolve(baseDir, glob);
}
