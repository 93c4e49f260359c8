import type { ServerResponse } from 'node:http';
import type { RequestStream, SessionStream } from '../gateway/session-streams.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * The answer to one POSTed request. It stays plain JSON (the fast path) unless something belonging to the
 * request — progress, a log line, a question for the user — must go out before the result; then it turns
 * into an SSE stream, provided the client said it accepts one.
 */
export class Exchange implements RequestStream {
  private streaming = false;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly acceptsSse: boolean,
  ) {}

  get closed(): boolean {
    return this.done || this.res.destroyed;
  }

  /** Runs `callback` if the client goes away before the result was sent. */
  onClose(callback: () => void): void {
    this.res.once('close', () => {
      if (!this.done) callback();
    });
  }

  /** A message sent before the result; returns false when it could not be delivered on this exchange. */
  send(message: JsonRpcMessage): boolean {
    if (this.closed) return false;
    if (!this.streaming) {
      if (!this.acceptsSse) return false;
      this.res.writeHead(200, SSE_HEADERS);
      this.streaming = true;
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return true;
  }

  /** The answer: the stream's last event once it streams, else the whole response (with `headers`, when given). */
  finish(message: JsonRpcMessage | JsonRpcMessage[], status = 200, headers?: Record<string, string>): void {
    if (this.closed) return;
    this.done = true;
    if (this.streaming) {
      this.res.end(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      return;
    }
    const body = JSON.stringify(message);
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
    this.res.end(body);
  }
}

/** A session's standalone GET stream, for what the server says unprompted (list changes, updates, logs). */
export class EventStream implements SessionStream {
  private readonly keepAlive: NodeJS.Timeout;

  constructor(readonly res: ServerResponse) {
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    // Comments keep idle proxies and load balancers from cutting the stream.
    this.keepAlive = setInterval(() => res.write(': keepalive\n\n'), 25_000);
    this.keepAlive.unref();
    res.on('close', () => clearInterval(this.keepAlive));
  }

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  onClose(callback: () => void): void {
    this.res.once('close', callback);
  }

  send(message: JsonRpcMessage): void {
    if (!this.closed) this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  close(): void {
    clearInterval(this.keepAlive);
    if (!this.closed) this.res.end();
  }
}
