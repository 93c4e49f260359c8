import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EVERYTHING } from './servers.js';

export type Era = 'legacy' | 'modern';

/** The official SDK v2 client over Streamable HTTP, in the legacy (initialize) or the stateless era. */
export async function connectV2(url: string, era: Era, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const options = era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities } : { capabilities };
  const client = new Client({ name: `test-${era}`, version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** server-everything straight over stdio, with no gateway: the reference for "passes through intact". */
export async function connectDirectEverything(): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [EVERYTHING, 'stdio'] }));
  return client;
}

/** Raw JSON-RPC over HTTP, for what SDK clients never send (malformed input, forged headers). */
export async function postRaw(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** A legacy session driven by hand: initialize, then raw requests with the session header. */
export async function rawSession(url: string, version = '2025-11-25'): Promise<{ id: string; call(method: string, params?: unknown): Promise<{ status: number; body: any }> }> {
  const init = await postRaw(url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
  const id = init.headers.get('mcp-session-id');
  if (!id) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  await postRaw(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-session-id': id });
  let next = 1;
  return {
    id,
    async call(method, params) {
      const res = await postRaw(url, JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }), { 'mcp-session-id': id, 'mcp-protocol-version': version });
      return { status: res.status, body: res.text ? res.json() : undefined };
    },
  };
}

/** The SDK v2 client over Streamable HTTP with a bearer token (legacy era), as an agent with a token connects. */
export async function connectWithToken(url: string, token: string, name = 'test', capabilities?: Record<string, unknown>): Promise<Client> {
  const client = new Client({ name, version: '1' }, capabilities ? ({ capabilities }) : undefined);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
