import { z } from 'zod';
import type { FilterActions } from '../filters/scan.js';
import type { Label } from '../ifc/label.js';
import { agentSchema, approvalsSchema, auditSchema, authSchema, definitionsPolicySchema, hookSchema, roleSchema, serverSecurityKeys, upstreamAuthSchema, type Policy } from './security-schema.js';

/**
 * The config file's shape. Upstreams sit under `mcpServers` exactly as MCP clients (Claude Desktop, Cursor,
 * VS Code, Claude Code) declare them, so an existing client config loads unchanged; sluice's own keys sit
 * beside them. Every object is strict: an unknown key is an error, never silently ignored.
 */

const seconds = z.number().positive();

export const serverSchema = z
  .object({
    // The client-config shape.
    type: z.enum(['stdio', 'http', 'sse', 'ws']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    // Keys several clients already write; honoured rather than rejected.
    disabled: z.boolean().optional(),
    timeout: z.number().int().positive().optional(),
    // sluice's own per-server options.
    prefix: z.string().regex(/^[A-Za-z0-9_-]*$/, 'may hold only A-Z a-z 0-9 _ -').optional(),
    mode: z.enum(['shared', 'per-session']).optional(),
    maxSessions: z.number().int().positive().optional(),
    idleTimeoutSeconds: seconds.optional(),
    requestTimeoutSeconds: seconds.optional(),
    /** Credentials sluice obtains for this upstream (http and sse only). */
    auth: upstreamAuthSchema.optional(),
    ...serverSecurityKeys,
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.command === undefined && s.url === undefined) {
      ctx.addIssue({ code: 'custom', message: 'needs either `command` (stdio) or `url` (http, sse, ws)' });
      return;
    }
    if (s.command !== undefined && s.url !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'a server has `command` or `url`, not both' });
    }
    if (s.url !== undefined) {
      for (const key of ['args', 'env', 'cwd'] as const) {
        if (s[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `\`${key}\` applies only to stdio servers (with \`command\`)` });
      }
      if (s.type === 'stdio') ctx.addIssue({ code: 'custom', path: ['type'], message: '`type: stdio` needs `command`, not `url`' });
      if (!/^(https?|wss?):\/\//.test(s.url)) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be an http://, https://, ws:// or wss:// URL' });
      }
    }
    if (s.auth !== undefined && (s.url === undefined || /^wss?:/.test(s.url) || s.type === 'ws')) {
      ctx.addIssue({ code: 'custom', path: ['auth'], message: '`auth` applies only to http and sse servers' });
    }
    if (s.auth?.tokenExchange && s.mode !== 'per-session') {
      ctx.addIssue({ code: 'custom', path: ['auth', 'tokenExchange'], message: 'token exchange gives each caller its own upstream token: it needs `mode: per-session`' });
    }
    if (s.command !== undefined) {
      if (s.headers !== undefined) ctx.addIssue({ code: 'custom', path: ['headers'], message: '`headers` applies only to remote servers (with `url`)' });
      if (s.type !== undefined && s.type !== 'stdio') ctx.addIssue({ code: 'custom', path: ['type'], message: `\`type: ${s.type}\` needs \`url\`, not \`command\`` });
    }
  });

export const configSchema = z
  .object({
    listen: z
      .string()
      .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be HOST:PORT, e.g. 127.0.0.1:8808 or [::1]:8808')
      .optional(),
    logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).optional(),
    pageSize: z.number().int().min(1).max(10000).optional(),
    namespace: z
      .object({
        separator: z.string().regex(/^[A-Za-z0-9_-]{1,4}$/, 'must be 1-4 of A-Z a-z 0-9 _ -').optional(),
      })
      .strict()
      .optional(),
    http: z
      .object({
        maxBodyBytes: z.number().int().positive().optional(),
        allowedHosts: z.array(z.string()).optional(),
        allowedOrigins: z.array(z.string()).optional(),
        sessionIdleTimeoutSeconds: seconds.optional(),
        /** On SIGTERM: how long calls in flight may take to finish before everything is closed anyway. */
        shutdownGraceSeconds: z.number().min(0).max(3600).optional(),
      })
      .strict()
      .optional(),
    dataDir: z.string().optional(),
    metrics: z
      .object({
        /** Prometheus metrics at GET /metrics (default on). */
        enabled: z.boolean().optional(),
        /** A port of their own (HOST:PORT) instead of the gateway's. */
        listen: z
          .string()
          .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be HOST:PORT, e.g. 127.0.0.1:9464')
          .optional(),
        /** loopback: loopback peers need no token, others an operator token; operator: always an operator token. */
        access: z.enum(['loopback', 'operator']).optional(),
      })
      .strict()
      .optional(),
    state: z
      .object({
        /** Shared state for all replicas: redis://[user:password@]host:6379/db or rediss:// (TLS). */
        url: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL').optional(),
        /** Prefix of every key and channel, so several gateways can share one Redis. */
        keyPrefix: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'may hold only A-Z a-z 0-9 _ . : - (at most 64)').optional(),
      })
      .strict()
      .optional(),
    auth: authSchema.optional(),
    agents: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'agent names may hold only A-Z a-z 0-9 _ . - (at most 64)'), agentSchema).optional(),
    roles: z.record(z.string().min(1), roleSchema).optional(),
    hooks: z.array(hookSchema).optional(),
    audit: auditSchema.optional(),
    /** The default for every server's `definitions` (what new, changed and flagged definitions get). */
    definitions: definitionsPolicySchema.optional(),
    approvals: approvalsSchema.optional(),
    mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'server names may hold only A-Z a-z 0-9 _ - (at most 64)'), serverSchema),
  })
  .strict();

export type RawConfig = z.infer<typeof configSchema>;
export type RawServer = z.infer<typeof serverSchema>;

/** A server entry with every default filled in: what the rest of sluice works with. */
export type ServerConfig =
  | (ServerCommon & { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string })
  | (ServerCommon & { transport: 'http' | 'sse' | 'ws'; url: string; headers: Record<string, string>; auth?: UpstreamAuth });

export interface UpstreamClient {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  resource?: string;
}

export type UpstreamAuth = { clientCredentials: UpstreamClient } | { tokenExchange: UpstreamClient & { audience?: string } };

export interface ToolSecurity {
  operation?: 'read' | 'write';
  clearance?: Label['confidentiality'];
  requireTrusted?: boolean;
  label?: Label;
  paths?: string[];
  /** Extra argument paths that carry URLs. */
  urls?: string[];
  /** Can carry data out of the trust boundary; overrides the server setting and the tool's openWorldHint. */
  openWorld?: boolean;
}

export interface ServerCommon {
  name: string;
  /** The label of what this server returns (default untrusted/public). */
  label: Label;
  /** Whether this server's tools can carry data out; unset: each tool's own openWorldHint (default true). */
  openWorld?: boolean;
  /** Absolute globs of files whose content stays trusted when read through this server. */
  trustedPaths: string[];
  /** Per-tool security settings by the tool's own name. */
  tools: Record<string, ToolSecurity>;
  /** Resource labels by URI glob, in config order. */
  resources: [string, Label][];
  /** What this server's new, changed and flagged definitions get (the top-level `definitions` filled in). */
  definitions: DefinitionsPolicy;
  /** Prefix for tool and prompt names; '' means the names pass through unchanged. */
  prefix: string;
  mode: 'shared' | 'per-session';
  maxSessions: number;
  idleTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface DefinitionsPolicy {
  /** Unset: allow on the very first start, quarantine afterwards (servers added later, new definitions). */
  new?: 'allow' | 'quarantine';
  changed: 'allow' | 'quarantine';
  flagged: 'quarantine' | 'untrusted' | 'allow';
}

export interface Bucket {
  perSecond: number;
  burst: number;
}

export interface RoleConfig {
  name: string;
  default: Policy;
  /** Tool rules as [glob, policy]; every matching rule counts, the most restrictive wins. */
  tools: [string, Policy][];
  readOnly: boolean;
  /** Sessions of this role are not raised by the agent's other sessions (see isolateSessions in the schema). */
  isolateSessions: boolean;
  paths: { allow: string[]; deny: string[] };
  /** URL rules on arguments that carry URLs (see policy/url-rules.ts). */
  urls: { allow: string[]; deny: string[]; freeText: 'off' | 'values' | 'embedded' };
  /** URI globs for resources/read; deny wins, a non-empty allow list must match. */
  resources: { allow: string[]; deny: string[] };
  onFlowViolation: Policy;
  filters: FilterActions;
  rateLimit?: Bucket & { tools: [string, Bucket][] };
}

export interface HookConfig {
  module: string;
  stage: 'pre' | 'post';
  tools?: string;
  timeoutMs: number;
}

export interface AuditConfig {
  enabled: boolean;
  file: string;
  synchronous: 'normal' | 'full';
  maxFieldBytes: number;
  signIntervalMs: number;
  retentionMs?: number;
  commitTimeoutMs: number;
  maxQueue: number;
  /** Postgres instead of SQLite at `file`. */
  url?: string;
  signingKeyFile: string;
}

export interface ApprovalsConfig {
  timeoutMs: number;
  askClient: boolean;
  keepAliveMs: number;
}

export interface OAuthConfig {
  issuer: string;
  /** Unset: the gateway's own /mcp URL. */
  audience?: string;
  /** In config order: the first mapped scope a token carries picks its role. */
  scopes: [scope: string, role: string][];
  algorithms: string[];
  clockSkewSeconds: number;
  jwksCooldownMs: number;
  introspection?: { url?: string; clientId: string; clientSecret: string };
}

export interface SecurityConfig {
  authRequired: boolean;
  oauth?: OAuthConfig;
  anonymousAgent?: string;
  stdioAgent?: string;
  tokensFile: string;
  agents: Record<string, { role: string }>;
  roles: Record<string, RoleConfig>;
  hooks: HookConfig[];
  audit: AuditConfig;
  approvals: ApprovalsConfig;
}

export interface GatewayConfig {
  /** The file it came from, for messages; undefined for a config built in code. */
  file?: string;
  listen: { host: string; port: number };
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  separator: string;
  /** Entries per page of a merged list (tools/list and the others). */
  pageSize: number;
  http: { maxBodyBytes: number; allowedHosts: string[]; allowedOrigins: string[]; sessionIdleTimeoutMs: number; shutdownGraceMs: number };
  servers: ServerConfig[];
  /** Where sluice keeps its own state (token hashes, later the audit log). */
  dataDir: string;
  /** Shared state in Redis (a cluster); unset: the embedded SQLite state in the data dir. */
  state: { url?: string; keyPrefix: string };
  metrics: { enabled: boolean; listen?: { host: string; port: number }; access: 'loopback' | 'operator' };
  security: SecurityConfig;
}

export const DEFAULT_LISTEN = '127.0.0.1:8808';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
