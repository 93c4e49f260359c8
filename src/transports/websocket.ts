import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FrontDoor } from '../gateway/front-door.js';
import type { Gateway } from '../gateway/gateway.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { Principal } from '../identity/principal.js';
import { authenticate, challengeFor } from './authenticate.js';
import { frameText } from '../protocol/ws-frame-text.js';
import { checkLocalRequest } from './guards.js';

/**
 * MCP over WebSocket at /ws on the HTTP port: one JSON-RPC message (or 2025-03-26 batch) per text frame, one
 * session per connection. Same Host/Origin guard as HTTP, checked before the upgrade completes.
 */
export function attachWebSocket(gateway: Gateway, front: FrontDoor, server: Server): WebSocketServer {
  const max = gateway.config.http.maxBodyBytes;
  // The hard cap sits above our own limit so that a merely oversized message gets a JSON-RPC error and the
  // connection survives; only absurd frames are cut off by ws itself.
  const wss = new WebSocketServer({ noServer: true, maxPayload: max * 4, handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false) });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    const refuse = (status: string, reason: string) =>
      void socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
    if (path !== '/ws') return refuse('404 Not Found', 'not found');
    const refusal = checkLocalRequest(gateway.config, req);
    if (refusal) return refuse('403 Forbidden', refusal);
    // Who is calling is settled before the upgrade: no token, no socket.
    void authenticate(gateway, req.headers.authorization).then((who) => {
      if (!who.ok) {
        gateway.authFailures.note(req.socket.remoteAddress ?? '', '/ws', who);
        const challenge = challengeFor(gateway, who);
        const status = who.status === 401 ? '401 Unauthorized' : '403 Forbidden';
        return refuse(challenge ? `${status}\r\nWWW-Authenticate: ${challenge}` : status, who.reason);
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveSocket(front, ws, who.principal));
    });
  });
  return wss;
}

function serveSocket(front: FrontDoor, ws: WebSocket, principal: Principal): void {
  const send = (m: JsonRpcMessage | JsonRpcMessage[]) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const connection = front.connect('ws', { send: (m) => send(m) }, principal);
  ws.on('message', (data) => {
    void connection.receive(frameText(data)).then((answer) => answer.body && send(answer.body));
  });
  ws.on('close', () => void connection.close());
  ws.on('error', () => ws.terminate());
}
