import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { stdioEnvironment } from './stdio-environment.js';
import { StdioTransport } from './stdio-transport.js';
import { WebSocketClientTransport } from './ws-client-transport.js';

/**
 * What a client transport needs of a configured server: the transport half of config's `ServerConfig`,
 * restated here because protocol/ sits below config/ (a ServerConfig fits it as it is).
 */
export type ClientTransportTarget =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { transport: 'http' | 'sse' | 'ws'; url: string; headers: Record<string, string> };

export interface ClientTransportOptions {
  /** Receives each line a stdio server writes to stderr; without it the lines are dropped. */
  onStderr?: (line: string) => void;
  /** A bearer token for every HTTP request (http and sse), asked for per request so it can be renewed. */
  bearer?: () => Promise<string>;
}

/**
 * The SDK's Transport, plus what some transports can tell about the connection. Both are optional, so the
 * SDK's own HTTP and SSE transports fit unchanged.
 */
export interface ClientTransport extends Transport {
  /** Why the connection ended, when the transport knows more than "closed" (exit code, last stderr line). */
  readonly closeReason?: string;
  /** The same in one word, with nothing the server wrote (a stdio server's process exited, or never started). */
  readonly closeKind?: 'exited' | 'failed to start';
  /** The server's process id while a stdio server runs. */
  readonly pid?: number;
}

/**
 * The one place a connection to a configured server is built, for the gateway's upstreams and for the agent.
 * Stdio and WebSocket use our own transports, which pass messages on without re-validating them (the hot path
 * of every proxied call); HTTP and SSE use the SDK's.
 */
export function createClientTransport(server: ClientTransportTarget, options: ClientTransportOptions = {}): ClientTransport {
  switch (server.transport) {
    case 'stdio':
      return new StdioTransport({ command: server.command, args: server.args, cwd: server.cwd, env: stdioEnvironment(server), onStderr: options.onStderr });
    case 'ws':
      return new WebSocketClientTransport(server.url, server.headers);
    case 'sse':
      return new SSEClientTransport(new URL(server.url), { requestInit: { headers: server.headers }, ...withBearer(options.bearer) });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers }, ...withBearer(options.bearer) });
  }
}

/** A fetch that puts a fresh bearer token on each request (over any static Authorization header). */
function withBearer(bearer: (() => Promise<string>) | undefined): { fetch?: typeof fetch } {
  if (!bearer) return {};
  return {
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${await bearer()}`);
      return fetch(url, { ...init, headers });
    },
  };
}
