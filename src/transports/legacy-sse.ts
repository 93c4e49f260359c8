import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connection, FrontDoor } from '../gateway/front-door.js';
import type { Principal } from '../identity/principal.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import { EventStream } from './sse.js';

interface SseClient {
  connection: Connection;
  stream: EventStream;
  /** Who opened the stream: only they may post to it. */
  owner: string;
}

/**
 * The HTTP+SSE transport of the 2024-11-05 revision, for clients and configs that speak only it: `GET /sse`
 * opens an event stream whose first event names the endpoint to post to (`/messages?sessionId=…`); each POST
 * carries one message (or a batch) and is answered 202, the answers arrive on the stream. It is one more
 * connection-oriented door into the same front door, behind the same authentication, Host/Origin checks and
 * body limit as /mcp.
 */
export class LegacySse {
  private readonly clients = new Map<string, SseClient>();

  constructor(private readonly front: FrontDoor) {}

  open(res: ServerResponse, principal: Principal, owner: string): void {
    const id = randomBytes(16).toString('hex');
    const stream = new EventStream(res);
    const send = (m: JsonRpcMessage | JsonRpcMessage[]) => stream.send(m as JsonRpcMessage);
    const connection = this.front.connect('sse', { send: (m) => send(m) }, principal);
    this.clients.set(id, { connection, stream, owner });
    res.write(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
    res.on('close', () => {
      this.clients.delete(id);
      void connection.close();
    });
  }

  /** A POST to /messages: 202 and the answer on the stream; 404 for an unknown or someone else's session. */
  async post(req: IncomingMessage, text: string, owner: string): Promise<{ status: number; error?: string }> {
    const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
    const client = this.clients.get(id);
    if (!client || client.owner !== owner) return { status: 404, error: 'Session not found' };
    void client.connection.receive(text).then((reply) => reply && client.stream.send(reply as JsonRpcMessage));
    return { status: 202 };
  }

  close(): void {
    for (const c of this.clients.values()) c.stream.close();
    this.clients.clear();
  }
}
