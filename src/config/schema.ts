import path from 'node:path';
import { z } from 'zod';
import { splitHostPort } from './host-port.js';
import {
  agentSchema,
  approvalsSchema,
  auditSchema,
  authSchema,
  definitionsPolicySchema,
  hookSchema,
  ms,
  roleSchema,
  type DefinitionsPolicy,
} from './security-schema.js';
import { serverSchema } from './server-schema.js';

/**
 * The config file's shape, and the one place each key is defined: its check, its default, its form in sluice.
 * Upstreams sit under `mcpServers` exactly as MCP clients (Claude Desktop, Cursor, VS Code, Claude Code)
 * declare them, so an existing client config loads unchanged; sluice's own keys sit beside them. Every
 * object is strict: an unknown key is an error, never silently ignored.
 */

export const DEFAULT_LISTEN = '127.0.0.1:8808';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

const seconds = z.number().positive();
const hostPort = (example: string) => z.string().regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, `must be HOST:PORT, e.g. ${example}`);
const address = (listen: string) => {
  const [host, port] = splitHostPort(listen);
  return { host, port };
};

export const configSchema = z
  .object({
    listen: hostPort('127.0.0.1:8808 or [::1]:8808').default(DEFAULT_LISTEN).transform(address),
    logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
    /** Entries per page of a merged list (tools/list and the others). */
    pageSize: z.number().int().min(1).max(10000).default(100),
    namespace: z
      .object({ separator: z.string().regex(/^[A-Za-z0-9_-]{1,4}$/, 'must be 1-4 of A-Z a-z 0-9 _ -').default('__') })
      .strict()
      .prefault({}),
    http: z
      .object({
        maxBodyBytes: z.number().int().positive().default(DEFAULT_MAX_BODY_BYTES),
        allowedHosts: z.array(z.string()).default([]),
        allowedOrigins: z.array(z.string()).default([]),
        sessionIdleTimeoutSeconds: seconds.default(1800),
        /** On SIGTERM: how long calls in flight may take to finish before everything is closed anyway. */
        shutdownGraceSeconds: z.number().min(0).max(3600).default(10),
      })
      .strict()
      .transform(({ sessionIdleTimeoutSeconds, shutdownGraceSeconds, ...http }) => ({
        ...http,
        sessionIdleTimeoutMs: ms(sessionIdleTimeoutSeconds),
        shutdownGraceMs: ms(shutdownGraceSeconds),
      }))
      .prefault({}),
    /** Where sluice keeps its own state (token hashes, the audit log, keys); relative to the config file. */
    dataDir: z.string().default('.sluice'),
    metrics: z
      .object({
        /** Prometheus metrics at GET /metrics. */
        enabled: z.boolean().default(true),
        /** A port of their own (HOST:PORT) instead of the gateway's. */
        listen: hostPort('127.0.0.1:9464').transform(address).optional(),
        /** loopback: loopback peers need no token, others an operator token; operator: always an operator token. */
        access: z.enum(['loopback', 'operator']).default('loopback'),
      })
      .strict()
      .prefault({}),
    /** Shared state for all replicas (a cluster); unset: the embedded SQLite state in the data dir. */
    state: z
      .object({
        /** redis://[user:password@]host:6379/db or rediss:// (TLS). */
        url: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL').optional(),
        /** Prefix of every key and channel, so several gateways can share one Redis. */
        keyPrefix: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'may hold only A-Z a-z 0-9 _ . : - (at most 64)').default('sluice:'),
      })
      .strict()
      .prefault({}),
    auth: authSchema.prefault({}),
    agents: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'agent names may hold only A-Z a-z 0-9 _ . - (at most 64)'), agentSchema).default({}),
    roles: z.record(z.string().min(1), roleSchema).default({}),
    hooks: z.array(hookSchema).default([]),
    audit: auditSchema.prefault({}),
    /** The default for every server's `definitions` (what new, changed and flagged definitions get). */
    definitions: definitionsPolicySchema.prefault({}),
    approvals: approvalsSchema.prefault({}),
    mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'server names may hold only A-Z a-z 0-9 _ - (at most 64)'), serverSchema),
  })
  .strict();

/** A config as written: the file's shape, before defaults. */
export type ConfigInput = z.input<typeof configSchema>;
type ParsedConfig = z.output<typeof configSchema>;

/**
 * The config as sluice works with it: grouped by who uses it, each server and role with its name, and every
 * path absolute. Relative paths in a config mean "relative to the config file" (`baseDir`), wherever sluice
 * was started from. `file` is the file it came from, for messages; undefined for a config built in code.
 */
export function gatewayConfig(c: ParsedConfig, baseDir: string, file?: string) {
  const at = (p: string) => path.resolve(baseDir, p);
  // A glob that starts with `**` matches anywhere; any other is a path.
  const glob = (g: string) => (g.startsWith('**') ? g : at(g));
  const inDataDir = (name: string) => path.join(c.dataDir, name);
  const servers = Object.entries(c.mcpServers)
    .filter(([, s]) => !s.disabled)
    .map(([name, { disabled: _, ...s }]) => {
      const named = { name, prefix: s.prefix ?? name, definitions: definitionsFor(s.definitions, c.definitions), trustedPaths: s.trustedPaths.map(glob) };
      return s.transport === 'stdio' ? { ...s, ...named, cwd: at(s.cwd) } : { ...s, ...named };
    });
  return {
    file,
    listen: c.listen,
    logLevel: c.logLevel,
    separator: c.namespace.separator,
    pageSize: c.pageSize,
    http: c.http,
    servers,
    dataDir: at(c.dataDir),
    state: c.state,
    metrics: c.metrics,
    security: {
      authRequired: c.auth.required,
      oauth: c.auth.oauth,
      anonymousAgent: c.auth.anonymousAgent,
      stdioAgent: c.auth.stdioAgent,
      tokensFile: at(c.auth.tokensFile ?? inDataDir('tokens.json')),
      agents: c.agents,
      roles: Object.fromEntries(
        Object.entries(c.roles).map(([name, r]) => [name, { name, ...r, paths: { allow: r.paths.allow.map(glob), deny: r.paths.deny.map(glob) } }]),
      ),
      hooks: c.hooks.map((h) => ({ ...h, module: at(h.module) })),
      audit: { ...c.audit, file: at(c.audit.file ?? inDataDir('audit.db')), signingKeyFile: at(c.audit.signingKeyFile ?? inDataDir('audit-signing-key.pem')) },
      approvals: c.approvals,
    },
  };
}

/** A server's own definitions policy over the file's: its unset keys fall back. */
function definitionsFor(own: Partial<DefinitionsPolicy> | undefined, base: DefinitionsPolicy): DefinitionsPolicy {
  return { new: own?.new ?? base.new, changed: own?.changed ?? base.changed, flagged: own?.flagged ?? base.flagged };
}

export type GatewayConfig = ReturnType<typeof gatewayConfig>;
export type ServerConfig = GatewayConfig['servers'][number];
export type SecurityConfig = GatewayConfig['security'];
export type RoleConfig = SecurityConfig['roles'][string];
export type HookConfig = SecurityConfig['hooks'][number];
export type AuditConfig = SecurityConfig['audit'];
export type ApprovalsConfig = SecurityConfig['approvals'];
export type OAuthConfig = NonNullable<SecurityConfig['oauth']>;
export type ToolSecurity = ServerConfig['tools'][string];
export type { Bucket, DefinitionsPolicy, UpstreamClient } from './security-schema.js';
