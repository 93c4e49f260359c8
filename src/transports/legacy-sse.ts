import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connection, FrontDoor } from '../gateway/front-door.js';
import type { Principal } from '../identity/principal.js';
import type { Logger } from '../log.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { SseMessage, StateStores } from '../state/ports.js';
import { EventStream } from './sse.js';

/** How long another replica can find an open stream; pushed out whenever the stream is used. */
const STREAM_RECORD_MS = 24 * 3_600_000;

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
 *
 * Behind a load balancer without stickiness the POSTs reach any replica: each stream is recorded in the
 * shared state, and a POST for a stream held elsewhere goes over the bus to the replica holding it.
 */
export class LegacySse {
  private readonly clients = new Map<string, SseClient>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly front: FrontDoor,
    private readonly state: StateStores,
    private readonly log: Logger,
  ) {
    this.unsubscribe = state.bus.subscribe('sse', (m) => this.fromOtherReplica(m));
  }

  open(res: ServerResponse, principal: Principal, owner: string): void {
    const id = randomBytes(16).toString('hex');
    const stream = new EventStream(res);
    const send = (m: JsonRpcMessage | JsonRpcMessage[]) => stream.send(m as JsonRpcMessage);
    const connection = this.front.connect('sse', { send: (m) => send(m) }, principal);
    this.clients.set(id, { connection, stream, owner });
    if (this.state.bus.shared) void this.state.sseStreams.put(id, { owner, replica: this.state.bus.replicaId }, STREAM_RECORD_MS).catch((err: Error) => this.log.warn({ err: err.message }, 'SSE stream not recorded: POSTs reaching other replicas will not find it'));
    res.write(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
    res.on('close', () => {
      this.clients.delete(id);
      void connection.close();
      if (this.state.bus.shared) void this.state.sseStreams.delete(id).catch(() => undefined);
    });
  }

  /** A POST to /messages: 202 and the answer on the stream; 404 for an unknown or someone else's session. */
  async post(req: IncomingMessage, text: string, owner: string): Promise<{ status: number; error?: string }> {
    const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
    if (this.deliver(id, owner, text)) return { status: 202 };
    if (!this.state.bus.shared) return { status: 404, error: 'Session not found' };
    const record = await this.state.sseStreams.get(id).catch(() => undefined);
    if (!record || record.owner !== owner) return { status: 404, error: 'Session not found' };
    await this.state.bus.publish('sse', { stream: id, owner, text });
    return { status: 202 };
  }

  /** Hands a POST's body to the stream's connection here; false when the stream is not here (or not theirs). */
  private deliver(id: string, owner: string, text: string): boolean {
    const client = this.clients.get(id);
    if (!client || client.owner !== owner) return false;
    void client.connection.receive(text).then((answer) => answer.body && client.stream.send(answer.body as JsonRpcMessage));
    return true;
  }

  private fromOtherReplica(m: SseMessage): void {
    if (this.deliver(m.stream, m.owner, m.text)) void this.state.sseStreams.touch(m.stream, STREAM_RECORD_MS).catch(() => undefined);
  }

  close(): void {
    this.unsubscribe();
    for (const c of this.clients.values()) c.stream.close();
    this.clients.clear();
  }
}
