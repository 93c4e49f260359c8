import { z } from 'zod';
import { parseUrlRule } from '../urls/url-rule.js';

/*
 * The security keys of the config file: roles, agents, authentication, hooks, audit, approvals. Each key is
 * written once, here: its check, its default (`.default`), and the form sluice works with (`.transform`:
 * seconds become milliseconds, maps of rules become ordered lists). The types follow from the schema.
 */

/** The config speaks seconds, sluice milliseconds. */
export const ms = (seconds: number): number => seconds * 1000;

/** A map's entries in config order: for rules where the order is part of the meaning. */
const entries = <T>(record: Record<string, T>): [string, T][] => Object.entries(record);

/** A URL rule (scheme, URL glob, host pattern or address range), checked when the config loads. */
const urlRule = z.string().min(1).superRefine((text, ctx) => {
  try {
    parseUrlRule(text);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
});

/** allow | deny | approve: what happens to a call a rule matches. Deny beats approve beats allow. */
export const policySchema = z.enum(['allow', 'deny', 'approve']);
export type Policy = z.infer<typeof policySchema>;

const filterAction = z.enum(['redact', 'block', 'label', 'off']);
const globs = z.array(z.string().min(1)).default([]);

const bucketKeys = {
  perSecond: z.number().positive(),
  /** Unset: one second's worth, at least 1. */
  burst: z.number().int().positive().optional(),
};
const withBurst = <B extends { perSecond: number; burst?: number }>(b: B) => ({ ...b, burst: b.burst ?? Math.max(1, Math.ceil(b.perSecond)) });
const bucketSchema = z.object(bucketKeys).strict().transform(withBurst);
export type Bucket = z.output<typeof bucketSchema>;

export const roleSchema = z
  .object({
    /** What a tool no rule matches gets. Unset: approve (a human decides, the safe default when nobody wrote a rule). */
    default: policySchema.default('approve'),
    /** Tool rules: glob on the merged tool name → policy; every matching rule counts, the most restrictive wins. */
    tools: z.record(z.string().min(1), policySchema).default({}).transform(entries),
    /** A read-only role may call read tools only. */
    readOnly: z.boolean().default(false),
    /** Relative globs are relative to the config file, like every other path in it. */
    paths: z.object({ allow: globs, deny: globs }).strict().prefault({}),
    /**
     * Keep this role's sessions apart for information flow: a session is raised only by what it read itself,
     * not by what the agent's other sessions read. For a shared identity used by several people; off by
     * default, because an agent is one actor and its sessions can pass data between them.
     */
    isolateSessions: z.boolean().default(false),
    /**
     * URL rules on every argument that carries a URL (see policy/url-rules.ts). Loopback, private, link-local
     * and cloud-metadata hosts are refused unless an allow entry names them, whatever is set here.
     */
    urls: z
      .object({
        allow: z.array(urlRule).default([]),
        deny: z.array(urlRule).default([]),
        /** off | values (default: any whole string that is an absolute URL) | embedded (URLs inside text too) */
        freeText: z.enum(['off', 'values', 'embedded']).default('values'),
      })
      .strict()
      .prefault({}),
    /** URI globs for resources/read (deny wins; with an allow list, a URI must match one). `file:` URIs also get `paths`. */
    resources: z.object({ allow: globs, deny: globs }).strict().prefault({}),
    /** What a write that would break information-flow rules gets. */
    onFlowViolation: policySchema.default('deny'),
    filters: z
      .object({ secret: filterAction.default('redact'), pii: filterAction.default('label'), injection: filterAction.default('label') })
      .strict()
      .prefault({}),
    rateLimit: z
      .object({ ...bucketKeys, tools: z.record(z.string().min(1), bucketSchema).default({}).transform(entries) })
      .strict()
      .transform(withBurst)
      .optional(),
  })
  .strict();

export const agentSchema = z.object({ role: z.string().min(1), description: z.string().optional() }).strict();

/** https, or http on a loopback address only (a local IdP in development and tests). */
const secureUrl = z
  .string()
  .url()
  .refine((u) => /^https:\/\//.test(u) || /^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost)(:\d+)?(\/|$)/.test(u), 'must be an https:// URL (http:// only on a loopback address)');

export const OAUTH_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

export const oauthSchema = z
  .object({
    /**
     * The authorization server; its metadata (OIDC discovery or RFC 8414) names the JWKS that verifies tokens.
     * No query or fragment (RFC 8414 §2): an OAuth identity is `issuer#subject`, and the first `#` must end the issuer.
     */
    issuer: secureUrl.refine((u) => !/[?#]/.test(u), 'an issuer URL has no query or fragment (RFC 8414)'),
    /** This gateway's canonical resource URI, the `aud` tokens must carry (default: its own /mcp URL). */
    audience: z.string().url().optional(),
    /** Granted scope → sluice role; of several mapped scopes a token carries, the first in this order wins. */
    scopes: z
      .record(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'a scope is printable ASCII without spaces, quotes or backslashes'), z.string().min(1))
      .transform(entries),
    /** Signature algorithms accepted (asymmetric only: never none, never HS*). */
    algorithms: z.array(z.enum(OAUTH_ALGORITHMS)).min(1).default(() => [...OAUTH_ALGORITHMS]),
    /** Tolerance for exp/nbf/iat, for clocks that drift. */
    clockSkewSeconds: z.number().min(0).max(300).default(30),
    /** Fewest seconds between two JWKS fetches: tokens with unknown key ids cannot make sluice hammer the IdP. */
    jwksCooldownSeconds: z.number().min(0).max(3600).default(30),
    /** Opaque (non-JWT) access tokens are checked by token introspection (RFC 7662) with these client credentials. */
    introspection: z
      .object({
        /** Default: the introspection_endpoint of the issuer's metadata. */
        url: secureUrl.optional(),
        clientId: z.string().min(1),
        clientSecret: z.string().min(1),
      })
      .strict()
      .optional(),
  })
  .strict()
  .transform(({ jwksCooldownSeconds, ...oauth }) => ({ ...oauth, jwksCooldownMs: ms(jwksCooldownSeconds) }));

/** A client of the authorization server that sluice itself is, for one upstream. */
const upstreamClientKeys = {
  /** The authorization server's token endpoint. */
  tokenUrl: secureUrl,
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scope: z.string().min(1).optional(),
  /** The upstream's resource URI (RFC 8707): the `aud` of the token sluice gets for it. */
  resource: z.string().url().optional(),
};
const upstreamClient = z.object(upstreamClientKeys).strict();
const tokenExchangeClient = z.object({ ...upstreamClientKeys, audience: z.string().min(1).optional() }).strict();
export type UpstreamClient = z.output<typeof upstreamClient>;
type UpstreamAuth = { clientCredentials: UpstreamClient } | { tokenExchange: z.output<typeof tokenExchangeClient> };

/**
 * How sluice authenticates to an upstream beyond static headers: its own token (client credentials), or —
 * per caller — the caller's token exchanged for one issued to this upstream (RFC 8693). Never the caller's own.
 */
export const upstreamAuthSchema = z
  .object({ clientCredentials: upstreamClient.optional(), tokenExchange: tokenExchangeClient.optional() })
  .strict()
  .refine((a) => (a.clientCredentials === undefined) !== (a.tokenExchange === undefined), 'give exactly one of clientCredentials or tokenExchange')
  // The check above leaves exactly one.
  .transform((a): UpstreamAuth => (a.clientCredentials ? { clientCredentials: a.clientCredentials } : { tokenExchange: a.tokenExchange! }));

export const authSchema = z
  .object({
    /** Off only when switched off explicitly, and then only on a loopback address. */
    required: z.boolean().default(true),
    /** Who an unauthenticated client is when `required: false`. */
    anonymousAgent: z.string().optional(),
    /** Who a stdio client is (the process that started us). */
    stdioAgent: z.string().optional(),
    /** Where token hashes live; relative to the config file. Default: <dataDir>/tokens.json. */
    tokensFile: z.string().optional(),
    /** OAuth 2.1 resource server: access tokens from this issuer, beside sluice's own tokens. */
    oauth: oauthSchema.optional(),
  })
  .strict();

export const hookSchema = z
  .object({
    /** Relative to the config file. */
    module: z.string().min(1),
    stage: z.enum(['pre', 'post']),
    /** Glob on merged tool names; unset: every tool. */
    tools: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().max(60_000).default(2000),
  })
  .strict();

/**
 * What a definition gets (issue 16): `new` — first seen (unset: allowed on the very first start, quarantined
 * for servers added later and for new definitions afterwards); `changed` — differs from what was trusted;
 * `flagged` — the definition scanner flagged it (quarantine it, label the server's output untrusted, or allow
 * it with the findings noted). A server's own keys override these; its unset keys fall back to them.
 */
const firstSight = z.enum(['allow', 'quarantine']);
const flaggedAction = z.enum(['quarantine', 'untrusted', 'allow']);
export const definitionsPolicySchema = z
  .object({ new: firstSight.optional(), changed: firstSight.default('quarantine'), flagged: flaggedAction.default('quarantine') })
  .strict();
export type DefinitionsPolicy = z.output<typeof definitionsPolicySchema>;
export const serverDefinitionsSchema = z.object({ new: firstSight, changed: firstSight, flagged: flaggedAction }).partial().strict();

export const auditSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** The SQLite file; relative to the config file. Default: <dataDir>/audit.db. */
    file: z.string().min(1).optional(),
    /** normal: durable when the process dies; full: also when the machine loses power (fsync per commit). */
    synchronous: z.enum(['normal', 'full']).default('normal'),
    maxFieldBytes: z.number().int().min(256).max(1_048_576).default(1024),
    signIntervalSeconds: z.number().positive().default(60),
    retentionDays: z.number().positive().optional(),
    /** How long a result waits for its record to be committed before it is withheld (the record still lands). */
    commitTimeoutSeconds: z.number().positive().max(3600).default(30),
    /** Records waiting to be committed before new calls are refused. */
    maxQueue: z.number().int().min(100).default(100_000),
    /** The audit log in Postgres instead of SQLite (several replicas share one chain): postgres://user@host:5432/db. */
    url: z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL').optional(),
    /**
     * The Ed25519 key that signs the chain head; default <dataDir>/audit-signing-key.pem, made on first start.
     * Replicas sharing one log share one key (a Secret), so one public key verifies every signed head.
     */
    signingKeyFile: z.string().min(1).optional(),
  })
  .strict()
  .transform(({ signIntervalSeconds, retentionDays, commitTimeoutSeconds, ...audit }) => ({
    ...audit,
    signIntervalMs: ms(signIntervalSeconds),
    retentionMs: retentionDays === undefined ? undefined : retentionDays * 86_400_000,
    commitTimeoutMs: ms(commitTimeoutSeconds),
  }));

export const approvalsSchema = z
  .object({
    /** How long a call waits for a human before it is denied. */
    timeoutSeconds: z.number().positive().max(86_400).default(120),
    /** Let the calling client's own user decide through elicitation, when the client supports it. */
    askClient: z.boolean().default(false),
    /** How often a waiting client gets a progress notification (when it asked for progress). */
    keepAliveSeconds: z.number().positive().default(10),
  })
  .strict()
  .transform(({ timeoutSeconds, askClient, keepAliveSeconds }) => ({ timeoutMs: ms(timeoutSeconds), askClient, keepAliveMs: ms(keepAliveSeconds) }));
