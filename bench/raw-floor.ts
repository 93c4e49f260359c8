/**
 * The raw floor: a bare node:http server that answers the JSON-RPC an MCP client sends for `echo`, with no MCP
 * library and no upstream hop. Nothing a Node gateway does per call can cost less than this, so it is the
 * ceiling any gateway could reach on this machine. Run as its own process (like the gateways) so it never
 * shares an event loop with the clients: `node --import tsx bench/raw-floor.ts <port>`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

type Id = string | number;
interface Incoming {
  id?: Id;
  method?: string;
  params?: { name?: unknown; arguments?: { message?: unknown }; protocolVersion?: unknown };
}

const ECHO_TOOL = {
  name: 'echo',
  description: 'Echoes back the input',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
};

const sessions = new Set<string>();

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function result(id: Id | undefined, value: unknown): unknown {
  return { jsonrpc: '2.0', id, result: value };
}

function answer(message: Incoming, res: ServerResponse, sessionId: string | undefined): void {
  if (message.id === undefined) return send(res, 202); // a notification
  switch (message.method) {
    case 'initialize': {
      const id = randomUUID();
      sessions.add(id);
      const version = typeof message.params?.protocolVersion === 'string' ? message.params.protocolVersion : '2025-11-25';
      return send(res, 200, result(message.id, { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'raw-floor', version: '1.0.0' } }), { 'mcp-session-id': id });
    }
    case 'tools/call': {
      if (!sessionId || !sessions.has(sessionId)) return send(res, 404, { jsonrpc: '2.0', id: message.id, error: { code: -32001, message: 'Session not found' } });
      const text = `Echo: ${String(message.params?.arguments?.message ?? '')}`;
      return send(res, 200, result(message.id, { content: [{ type: 'text', text }] }));
    }
    case 'tools/list':
      return send(res, 200, result(message.id, { tools: [ECHO_TOOL] }));
    case 'ping':
      return send(res, 200, result(message.id, {}));
    default:
      return send(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  }
}

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  if (req.method === 'DELETE') {
    if (sessionId) sessions.delete(sessionId);
    return send(res, 200);
  }
  // No standalone event stream: 405 is how the spec says "not offered", and clients carry on without it.
  if (req.method !== 'POST') return send(res, 405, undefined, { allow: 'POST, DELETE' });
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let message: Incoming;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Incoming;
    } catch {
      return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    answer(message, res, sessionId);
  });
}

const port = Number(process.argv[2]);
const server = createServer(onRequest);
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => process.stdout.write(`raw floor listening on 127.0.0.1:${port}\n`));
process.once('SIGTERM', () => process.exit(0));
