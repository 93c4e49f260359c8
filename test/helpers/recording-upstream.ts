import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingUpstream {
  url: string;
  /** The Authorization header of every request it received ('' when there was none). */
  authorizations: string[];
  stop(): Promise<void>;
}

/**
 * A minimal MCP server over Streamable HTTP (JSON answers) with one tool, `whoami`, that remembers the
 * Authorization header of every request: what an upstream behind sluice gets to see of its callers.
 */
export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const authorizations: string[] = [];
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? '');
    if (req.method !== 'POST') return void res.writeHead(405).end();
    void body(req).then((text) => {
      const m = JSON.parse(text) as { id?: number | string; method: string; params?: { protocolVersion?: string } };
      if (m.id === undefined) return void res.writeHead(202).end();
      const result =
        m.method === 'initialize'
          ? { protocolVersion: m.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'recorder', version: '1' } }
          : m.method === 'tools/list'
            ? { tools: [{ name: 'whoami', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true, openWorldHint: false } }] }
            : m.method === 'tools/call'
              ? { content: [{ type: 'text', text: `you sent: ${req.headers.authorization ?? '(no Authorization)'}` }] }
              : m.method === 'ping'
                ? {}
                : undefined;
      const reply = result === undefined ? { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } } : { jsonrpc: '2.0', id: m.id, result };
      res.writeHead(200, { 'content-type': 'application/json', ...(m.method === 'initialize' ? { 'mcp-session-id': 'recorder-session' } : {}) }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
