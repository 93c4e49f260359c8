import type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';

/** A POST's own response while its request runs: what belongs to the request goes there before the answer. */
export interface RequestStream {
  /** False when it cannot carry the message (closed, or the client takes only JSON). */
  send(message: JsonRpcMessage): boolean;
  /** Runs `callback` if the client goes away before the answer. */
  onClose(callback: () => void): void;
}

/** A legacy session's standalone stream (GET /mcp), for what the server says unprompted. */
export interface SessionStream {
  readonly closed: boolean;
  send(message: JsonRpcMessage): void;
  close(): void;
  onClose(callback: () => void): void;
}

/** What this process holds of one session: its GET stream, and the responses of its requests still running. */
export interface Streams {
  stream?: SessionStream;
  requests: Map<RequestId, RequestStream>;
}

/** The streams of the legacy HTTP sessions this process serves, by session id. */
export class SessionStreams {
  private readonly byId = new Map<string, Streams>();

  of(id: string): Streams {
    let streams = this.byId.get(id);
    if (!streams) this.byId.set(id, (streams = { requests: new Map() }));
    return streams;
  }

  /** Related messages go on their request's own stream when it can carry them, the rest on the GET stream; false: neither is here. */
  send(id: string, message: JsonRpcMessage, relatedTo: RequestId | undefined): boolean {
    const streams = this.byId.get(id);
    const request = relatedTo === undefined ? undefined : streams?.requests.get(relatedTo);
    if (request?.send(message)) return true;
    if (!streams?.stream || streams.stream.closed) return false;
    streams.stream.send(message);
    return true;
  }

  /** Whether this process holds the session's GET stream. */
  here(id: string): boolean {
    const stream = this.byId.get(id)?.stream;
    return stream !== undefined && !stream.closed;
  }

  /** Whether the session has a stream open here; the entry of one that has none is dropped. */
  busy(id: string): boolean {
    const streams = this.byId.get(id);
    const busy = streams !== undefined && (streams.requests.size > 0 || (streams.stream !== undefined && !streams.stream.closed));
    if (!busy) this.byId.delete(id);
    return busy;
  }

  /** The session ended or left this process: its GET stream closes. */
  end(id: string): void {
    this.byId.get(id)?.stream?.close();
    this.byId.delete(id);
  }

  closeAll(): void {
    for (const s of this.byId.values()) s.stream?.close();
    this.byId.clear();
  }
}
