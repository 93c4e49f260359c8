import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Gateway } from '../gateway/gateway.js';
import { ClientSession } from '../gateway/session.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import { handleFrame } from './frames.js';
import { checkLocalRequest } from './guards.js';

/**
 * MCP over WebSocket at /ws on the HTTP port: one JSON-RPC message (or 2025-03-26 batch) per text frame, one
 * session per connection. Same Host/Origin guard as HTTP, checked before the upgrade completes.
 */
export function attachWebSocket(gateway: Gateway, server: Server): WebSocketServer {
  const max = gateway.config.http.maxBodyBytes;
  // The hard cap sits above our own limit so that a merely oversized message gets a JSON-RPC error and the
  // connection survives; only absurd frames are cut off by ws itself.
  const wss = new WebSocketServer({ noServer: true, maxPayload: max * 4, handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false) });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    const refusal = path === '/ws' ? checkLocalRequest(gateway.config, req) : 'not found';
    if (refusal) {
      socket.end(`HTTP/1.1 ${path === '/ws' ? '403 Forbidden' : '404 Not Found'}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${refusal}\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(gateway, ws, max));
  });
  return wss;
}

function serveSocket(gateway: Gateway, ws: WebSocket, max: number): void {
  const send = (m: JsonRpcMessage | JsonRpcMessage[]) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const session = new ClientSession('ws', { send: (m) => send(m) });
  gateway.register(session);
  ws.on('message', (data, isBinary) => {
    const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
    void handleFrame(gateway, session, text, max).then((reply) => reply && send(reply));
  });
  ws.on('close', () => void gateway.closeSession(session));
  ws.on('error', () => ws.terminate());
}
