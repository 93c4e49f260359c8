import { z } from 'zod';
import { CONFIDENTIALITY, INTEGRITY } from '../ifc/label.js';
import { parseUrlRule } from '../urls/url-rule.js';

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

export const labelSchema = z
  .object({
    integrity: z.enum(INTEGRITY).optional(),
    confidentiality: z.enum(CONFIDENTIALITY).optional(),
  })
  .strict();

const filterAction = z.enum(['redact', 'block', 'label', 'off']);

const bucketSchema = z
  .object({
    perSecond: z.number().positive(),
    burst: z.number().int().positive().optional(),
  })
  .strict();

export const roleSchema = z
  .object({
    /** What a tool no rule matches gets. Unset: approve (a human decides). */
    default: policySchema.optional(),
    /** Tool rules: glob on the merged tool name → policy. */
    tools: z.record(z.string().min(1), policySchema).optional(),
    /** A read-only role may call read tools only. */
    readOnly: z.boolean().optional(),
    paths: z
      .object({
        allow: z.array(z.string().min(1)).optional(),
        deny: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .optional(),
    /**
     * Keep this role's sessions apart for information flow: a session is raised only by what it read itself,
     * not by what the agent's other sessions read. For a shared identity used by several people; off by
     * default, because an agent is one actor and its sessions can pass data between them.
     */
    isolateSessions: z.boolean().optional(),
    /**
     * URL rules on every argument that carries a URL. Loopback, private, link-local and cloud-metadata hosts
     * are refused unless an allow entry names them, whatever is set here.
     */
    urls: z
      .object({
        allow: z.array(urlRule).optional(),
        deny: z.array(urlRule).optional(),
        /** off | values (default: any whole string that is an absolute URL) | embedded (URLs inside text too) */
        freeText: z.enum(['off', 'values', 'embedded']).optional(),
      })
      .strict()
      .optional(),
    /** URI globs for resources/read (deny wins; with an allow list, a URI must match one). `file:` URIs also get `paths`. */
    resources: z
      .object({
        allow: z.array(z.string().min(1)).optional(),
        deny: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .optional(),
    /** What a write that would break information-flow rules gets. Unset: deny. */
    onFlowViolation: policySchema.optional(),
    filters: z
      .object({ secret: filterAction.optional(), pii: filterAction.optional(), injection: filterAction.optional() })
      .strict()
      .optional(),
    rateLimit: bucketSchema.extend({ tools: z.record(z.string().min(1), bucketSchema).optional() }).strict().optional(),
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
    scopes: z.record(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'a scope is printable ASCII without spaces, quotes or backslashes'), z.string().min(1)),
    /** Signature algorithms accepted (asymmetric only: never none, never HS*). */
    algorithms: z.array(z.enum(OAUTH_ALGORITHMS)).min(1).optional(),
    /** Tolerance for exp/nbf/iat, for clocks that drift. */
    clockSkewSeconds: z.number().min(0).max(300).optional(),
    /** Fewest seconds between two JWKS fetches: tokens with unknown key ids cannot make sluice hammer the IdP. */
    jwksCooldownSeconds: z.number().min(0).max(3600).optional(),
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
  .strict();

/** A client of the authorization server that sluice itself is, for one upstream. */
const upstreamClient = {
  /** The authorization server's token endpoint. */
  tokenUrl: secureUrl,
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scope: z.string().min(1).optional(),
  /** The upstream's resource URI (RFC 8707): the `aud` of the token sluice gets for it. */
  resource: z.string().url().optional(),
};

/**
 * How sluice authenticates to an upstream beyond static headers: its own token (client credentials), or —
 * per caller — the caller's token exchanged for one issued to this upstream (RFC 8693). Never the caller's own.
 */
export const upstreamAuthSchema = z
  .object({
    clientCredentials: z.object(upstreamClient).strict().optional(),
    tokenExchange: z.object({ ...upstreamClient, audience: z.string().min(1).optional() }).strict().optional(),
  })
  .strict()
  .refine((a) => (a.clientCredentials === undefined) !== (a.tokenExchange === undefined), 'give exactly one of clientCredentials or tokenExchange');

export const authSchema = z
  .object({
    /** Off only when switched off explicitly, and then only on a loopback address. */
    required: z.boolean().optional(),
    /** Who an unauthenticated client is when `required: false`. */
    anonymousAgent: z.string().optional(),
    /** Who a stdio client is (the process that started us). */
    stdioAgent: z.string().optional(),
    /** Where token hashes live; relative to the config file. */
    tokensFile: z.string().optional(),
    /** OAuth 2.1 resource server: access tokens from this issuer, beside sluice's own tokens. */
    oauth: oauthSchema.optional(),
  })
  .strict();

export const hookSchema = z
  .object({
    module: z.string().min(1),
    stage: z.enum(['pre', 'post']),
    /** Glob on merged tool names; unset: every tool. */
    tools: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().max(60_000).optional(),
  })
  .strict();

/** Per-tool security settings on a server entry, keyed by the tool's own (unprefixed) name. */
export const toolSecuritySchema = z
  .object({
    operation: z.enum(['read', 'write']).optional(),
    /** The highest confidentiality this tool may receive (write tools). Unset: public. */
    clearance: z.enum(CONFIDENTIALITY).optional(),
    /** Refuse (per the role's onFlowViolation) a call from a session that has read untrusted data. */
    requireTrusted: z.boolean().optional(),
    /** The label of what this tool returns; overrides the server's. */
    label: labelSchema.optional(),
    /** Extra argument paths that carry file paths, e.g. `options.location`, `items[].file`. */
    paths: z.array(z.string().min(1)).optional(),
    /** Extra argument paths that carry URLs, for the role's URL rules. */
    urls: z.array(z.string().min(1)).optional(),
    /**
     * Whether the tool can carry data out of the trust boundary (a fetch, a search, a message). Overrides the
     * server's setting and the tool's `openWorldHint` annotation (which MCP defaults to true).
     */
    openWorld: z.boolean().optional(),
  })
  .strict();

/**
 * What a definition gets (issue 16): `new` — first seen (unset: allowed on the very first start, quarantined
 * for servers added later and for new definitions afterwards); `changed` — differs from what was trusted;
 * `flagged` — the definition scanner flagged it (quarantine it, label the server's output untrusted, or allow
 * it with the findings noted).
 */
export const definitionsPolicySchema = z
  .object({
    new: z.enum(['allow', 'quarantine']).optional(),
    changed: z.enum(['allow', 'quarantine']).optional(),
    flagged: z.enum(['quarantine', 'untrusted', 'allow']).optional(),
  })
  .strict();

export const serverSecurityKeys = {
  /** What this server's new, changed and flagged definitions get; unset keys fall back to the top-level `definitions`. */
  definitions: definitionsPolicySchema.optional(),
  /** The label of everything this server returns. Unset: untrusted/public. */
  label: labelSchema.optional(),
  /** Whether this server's tools can carry data out (see the tool setting); unset: each tool's openWorldHint. */
  openWorld: z.boolean().optional(),
  /** Files under these globs keep a trusted label when read through this server. */
  trustedPaths: z.array(z.string().min(1)).optional(),
  tools: z.record(z.string().min(1), toolSecuritySchema).optional(),
  /** Labels for resources, by URI glob. */
  resources: z.record(z.string().min(1), z.object({ label: labelSchema }).strict()).optional(),
};

export const auditSchema = z
  .object({
    enabled: z.boolean().optional(),
    /** The SQLite file; relative to the config file. Default: <dataDir>/audit.db. */
    file: z.string().min(1).optional(),
    /** normal: durable when the process dies; full: also when the machine loses power (fsync per commit). */
    synchronous: z.enum(['normal', 'full']).optional(),
    maxFieldBytes: z.number().int().min(256).max(1_048_576).optional(),
    signIntervalSeconds: z.number().positive().optional(),
    retentionDays: z.number().positive().optional(),
    /** How long a result waits for its record to be committed before it is withheld (the record still lands). */
    commitTimeoutSeconds: z.number().positive().max(3600).optional(),
    /** Records waiting to be committed before new calls are refused. */
    maxQueue: z.number().int().min(100).optional(),
    /** The audit log in Postgres instead of SQLite (several replicas share one chain): postgres://user@host:5432/db. */
    url: z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL').optional(),
    /**
     * The Ed25519 key that signs the chain head; default <dataDir>/audit-signing-key.pem, made on first start.
     * Replicas sharing one log share one key (a Secret), so one public key verifies every signed head.
     */
    signingKeyFile: z.string().min(1).optional(),
  })
  .strict();

export const approvalsSchema = z
  .object({
    /** How long a call waits for a human before it is denied. */
    timeoutSeconds: z.number().positive().max(86_400).optional(),
    /** Let the calling client's own user decide through elicitation, when the client supports it. */
    askClient: z.boolean().optional(),
    /** How often a waiting client gets a progress notification (when it asked for progress). */
    keepAliveSeconds: z.number().positive().optional(),
  })
  .strict();
