import path from 'node:path';
import { z } from 'zod';
import type { ClientTransportTarget } from '../protocol/client-transport.js';
import { transportForUrl } from '../protocol/transport-for-url.js';

/** A server the agent starts: the `mcpServers` entry MCP clients already write for a local command. */
export interface CommandServer {
  command: string;
  args?: string[];
  /** Added to the small safe environment the server gets (it never sees the agent's whole environment). */
  env?: Record<string, string>;
  cwd?: string;
}

/** A server the agent reaches over the network (a sluice gateway too): `type` defaults from the URL's scheme. */
export interface RemoteServer {
  url: string;
  type?: 'http' | 'sse' | 'ws';
  headers?: Record<string, string>;
}

/** One MCP server, in the shape of an `mcpServers` entry. */
export type AgentServer = CommandServer | RemoteServer;

/**
 * A server as the agent connects to it: its name and transport, and what to call it in messages ("the
 * gateway"). A gateway ServerConfig fits as it is.
 */
export type NamedServer = { name: string; displayName?: string } & ClientTransportTarget;

/** Options that cannot work: what is wrong and where, for the person who wrote them. */
export class AgentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentConfigError';
  }
}

const strings = z.record(z.string(), z.string());
const entrySchema = z.union([
  z.object({ command: z.string().min(1), args: z.array(z.string()).optional(), env: strings.optional(), cwd: z.string().optional() }).strict(),
  z
    .object({ url: z.string().regex(/^(https?|wss?):\/\//, 'must be an http://, https://, ws:// or wss:// URL'), type: z.enum(['http', 'sse', 'ws']).optional(), headers: strings.optional() })
    .strict(),
]);

/**
 * `mcpServers`-shaped servers as the agent connects to them, checked first: names become tool-name prefixes,
 * so they are letters, digits, `_` and `-`; each entry has a command or a URL and nothing it would ignore.
 */
export function namedServers(servers: Record<string, AgentServer>): NamedServer[] {
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new AgentConfigError('servers must be an object of named servers, e.g. { files: { command: "npx", args: [...] } }');
  }
  return Object.keys(servers).map((name) => {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw new AgentConfigError(`server name "${name}" may hold only A-Z a-z 0-9 _ - (at most 64)`);
    const parsed = entrySchema.safeParse(servers[name]);
    if (!parsed.success) {
      throw new AgentConfigError(`server "${name}" needs either command (with args, env, cwd) or url (with type, headers): ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
    }
    const s = parsed.data;
    if ('command' in s) return { name, transport: 'stdio', command: s.command, args: s.args ?? [], env: s.env ?? {}, cwd: path.resolve(s.cwd ?? '.') };
    return { name, transport: transportForUrl(s.url, s.type), url: s.url, headers: s.headers ?? {} };
  });
}
