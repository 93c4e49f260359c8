import { z } from 'zod';
import { CONFIDENTIALITY, INTEGRITY, type Label } from '../ifc/label.js';
import { transportForUrl } from '../protocol/transport-for-url.js';
import { ms, serverDefinitionsSchema, upstreamAuthSchema } from './security-schema.js';

/*
 * One `mcpServers` entry, exactly as MCP clients (Claude Desktop, Cursor, VS Code, Claude Code) write it, with
 * sluice's own keys beside the client's: checked, defaults filled, in the form sluice works with. What needs
 * the rest of the file (the entry's name, the top-level `definitions`) is added in schema.ts.
 */

const seconds = z.number().positive();

/** Data from an upstream is untrusted unless the operator says otherwise. */
const UPSTREAM_DEFAULT: Label = { integrity: 'untrusted', confidentiality: 'public' };

const labelSchema = z
  .object({
    integrity: z.enum(INTEGRITY).optional(),
    confidentiality: z.enum(CONFIDENTIALITY).optional(),
  })
  .strict();

/** A label as written, its unset parts taken from `base`. */
function labelOver(base: Label, written: z.output<typeof labelSchema> | undefined): Label {
  return { integrity: written?.integrity ?? base.integrity, confidentiality: written?.confidentiality ?? base.confidentiality };
}

/** Per-tool security settings on a server entry, keyed by the tool's own (unprefixed) name. */
const toolSecuritySchema = z
  .object({
    operation: z.enum(['read', 'write']).optional(),
    /** The highest confidentiality this tool may receive (write tools). Unset: public. */
    clearance: z.enum(CONFIDENTIALITY).optional(),
    /** Refuse (per the role's onFlowViolation) a call from a session that has read untrusted data. */
    requireTrusted: z.boolean().optional(),
    /** The label of what this tool returns; its unset parts are the server's. */
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

/** A tool's settings as sluice works with them: its label whole, the server's filling the parts it leaves unset. */
type ToolSecurity = Omit<z.output<typeof toolSecuritySchema>, 'label'> & { label?: Label };

const serverKeys = z
  .object({
    // The client-config shape. Keys that apply to one kind of server only get their defaults in
    // `serverConfig`, once the kind is known: the checks below must see what was written.
    type: z.enum(['stdio', 'http', 'sse', 'ws']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    // Keys several clients already write; honoured rather than rejected.
    disabled: z.boolean().default(false),
    /** Milliseconds, as clients write it; `requestTimeoutSeconds` wins. */
    timeout: z.number().int().positive().optional(),
    // sluice's own per-server options.
    /** Prefix for tool and prompt names; '' means the names pass through unchanged. Unset: the server's name. */
    prefix: z.string().regex(/^[A-Za-z0-9_-]*$/, 'may hold only A-Z a-z 0-9 _ -').optional(),
    mode: z.enum(['shared', 'per-session']).default('shared'),
    maxSessions: z.number().int().positive().default(32),
    idleTimeoutSeconds: seconds.default(300),
    requestTimeoutSeconds: seconds.optional(),
    /** Credentials sluice obtains for this upstream (http and sse only). */
    auth: upstreamAuthSchema.optional(),
    /** What this server's new, changed and flagged definitions get; unset keys fall back to the top-level `definitions`. */
    definitions: serverDefinitionsSchema.optional(),
    /** The label of everything this server returns. Unset: untrusted/public. */
    label: labelSchema.prefault({}).transform((label) => labelOver(UPSTREAM_DEFAULT, label)),
    /** Whether this server's tools can carry data out (see the tool setting); unset: each tool's openWorldHint. */
    openWorld: z.boolean().optional(),
    /** Files under these globs keep a trusted label when read through this server; relative to the config file. */
    trustedPaths: z.array(z.string().min(1)).default([]),
    tools: z.record(z.string().min(1), toolSecuritySchema).default({}),
    /** Labels for resources, by URI glob, in config order. */
    resources: z.record(z.string().min(1), z.object({ label: labelSchema }).strict()).default({}),
  })
  .strict();

type ServerKeys = z.output<typeof serverKeys>;

function checkServer(s: ServerKeys, ctx: z.RefinementCtx): void {
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
  if (s.auth && 'tokenExchange' in s.auth && s.mode !== 'per-session') {
    ctx.addIssue({ code: 'custom', path: ['auth', 'tokenExchange'], message: 'token exchange gives each caller its own upstream token: it needs `mode: per-session`' });
  }
  if (s.command !== undefined) {
    if (s.headers !== undefined) ctx.addIssue({ code: 'custom', path: ['headers'], message: '`headers` applies only to remote servers (with `url`)' });
    if (s.type !== undefined && s.type !== 'stdio') ctx.addIssue({ code: 'custom', path: ['type'], message: `\`type: ${s.type}\` needs \`url\`, not \`command\`` });
  }
}

/** A checked entry as sluice works with it: a stdio server or a remote one, every default filled in. */
function serverConfig(s: ServerKeys) {
  const { type, command, args, env, cwd, url, headers, auth, timeout, idleTimeoutSeconds, requestTimeoutSeconds, tools, resources, ...common } = s;
  const settings = {
    ...common,
    tools: Object.fromEntries(Object.entries(tools).map(([name, t]): [string, ToolSecurity] => [name, { ...t, label: t.label && labelOver(s.label, t.label) }])),
    resources: Object.entries(resources).map(([glob, r]): [string, Label] => [glob, labelOver(s.label, r.label)]),
    idleTimeoutMs: ms(idleTimeoutSeconds),
    requestTimeoutMs: requestTimeoutSeconds !== undefined ? ms(requestTimeoutSeconds) : (timeout ?? 300_000),
  };
  if (command !== undefined) return { ...settings, transport: 'stdio' as const, command, args: args ?? [], env: env ?? {}, cwd: cwd ?? '.' };
  // The checks guarantee a URL when there is no command.
  const remote = url!;
  return { ...settings, transport: transportForUrl(remote, type === 'stdio' ? undefined : type), url: remote, headers: headers ?? {}, ...(auth ? { auth } : {}) };
}

export const serverSchema = serverKeys.superRefine(checkServer).transform(serverConfig);
