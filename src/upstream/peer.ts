import type { Transport } from '@modelcontextprotocol/client';
import { SluiceError, toWire } from '../protocol/errors.js';
import { ErrorCode, notification, PeerError, resultMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type Params } from '../protocol/jsonrpc.js';
import { checkUpstreamMessage, MalformedMessageError, type UpstreamRejection } from '../protocol/upstream-message.js';

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PeerHandlers {
  /** A request the other side sends us (sampling, elicitation, roots, ping). */
  onRequest(request: JsonRpcRequest): Promise<Params>;
  onNotification(message: JsonRpcNotification): void;
  /** A message that failed `checkUpstreamMessage`, or data that was no message at all: dropped. */
  onInvalid(reason: string): void;
  /** A well-formed response to no request of ours in flight (a late answer, an id we never sent): dropped. */
  onUnmatched(): void;
}

interface Pending {
  method: string;
  deadline: number;
  resolve(result: Params): void;
  reject(err: Error): void;
  /** Gives up on the request: tells the upstream, and fails the caller with `error`. */
  cancel(error: SluiceError, reason: string): void;
  timeoutMessage(): string;
}

/**
 * JSON-RPC over one transport with our own id space: every outgoing request gets a fresh numeric id, so calls
 * from many clients share one upstream connection without their ids ever clashing. Everything the server sends
 * is checked here, at the edge, before anything reads it: the server is untrusted input.
 */
export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedError?: Error;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly transport: Transport,
    private readonly handlers: PeerHandlers,
    /** The server's name, for the errors its callers see. */
    private readonly server: string,
  ) {
    transport.onmessage = (m) => this.receive(m);
    // What the transport could not even parse counts with the messages that fail the check.
    const previousError = transport.onerror;
    transport.onerror = (err) => {
      if (!(err instanceof MalformedMessageError)) return previousError?.(err);
      if (!this.closedError) this.drop({ ok: false, reason: err.message, id: err.id });
    };
    const previousClose = transport.onclose;
    transport.onclose = () => {
      this.failAll(new SluiceError('UPSTREAM_UNAVAILABLE', 'upstream connection closed'));
      previousClose?.();
    };
  }

  request(method: string, params: Params | undefined, options: RequestOptions): Promise<Params> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<Params>((resolve, reject) => {
      const signal = options.signal;
      const settle = () => {
        this.pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => this.pending.get(id)?.cancel(new SluiceError('CANCELLED', 'request cancelled'), String(signal?.reason ?? 'cancelled'));
      this.pending.set(id, {
        method,
        deadline: performance.now() + options.timeoutMs,
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
        cancel: (error, reason) => {
          settle();
          void this.notify('notifications/cancelled', { requestId: id, reason });
          reject(error);
        },
        timeoutMessage: () => `upstream did not answer ${method} within ${options.timeoutMs} ms`,
      });
      if (signal) {
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      }
      this.ensureSweeper();
      const message: JsonRpcRequest = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
      this.transport.send(message).catch((err: Error) => this.pending.get(id)?.reject(new SluiceError('UPSTREAM_UNAVAILABLE', err.message, { cause: err })));
    });
  }

  /**
   * Timeouts are checked by one sweep rather than a timer per request: this is the hot path, and requests
   * time out in minutes, so a quarter-second of slack costs nothing.
   */
  private ensureSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const p of this.pending.values()) if (p.deadline <= now) p.cancel(new SluiceError('UPSTREAM_TIMEOUT', p.timeoutMessage()), 'timeout');
      if (this.pending.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, 250);
    this.sweeper.unref();
  }

  notify(method: string, params?: Params): Promise<void> {
    if (this.closedError) return Promise.resolve();
    return this.transport.send(notification(method, params)).catch(() => undefined);
  }

  /** Closes the connection; calls in flight fail with `error`. */
  close(error: Error = new SluiceError('UPSTREAM_UNAVAILABLE', 'upstream connection closed')): Promise<void> {
    this.failAll(error);
    return this.transport.close();
  }

  private failAll(err: Error): void {
    this.closedError ??= err;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const p of [...this.pending.values()]) p.reject(err);
  }

  private receive(value: unknown): void {
    if (this.closedError) return; // what is still in the pipe after close is nobody's
    const checked = checkUpstreamMessage(value);
    if (!checked.ok) return this.drop(checked);
    switch (checked.kind) {
      case 'response':
        return this.settle(checked.message);
      case 'request':
        return this.answer(checked.message);
      case 'notification':
        return this.handlers.onNotification(checked.message);
    }
  }

  private settle(response: JsonRpcResponse): void {
    const p = typeof response.id === 'number' ? this.pending.get(response.id) : undefined;
    if (!p) return this.handlers.onUnmatched(); // a late answer to a call that timed out or was cancelled, or no call of ours
    if ('error' in response) p.reject(new PeerError(response.error.code, response.error.message, response.error.data));
    else p.resolve(response.result);
  }

  /**
   * An invalid message: the call it answers (if it carries the id of one of ours) fails with the reason, a
   * request is answered as invalid, and the server is told off to its Upstream — which may close us.
   */
  private drop(bad: UpstreamRejection): void {
    const p = typeof bad.id === 'number' ? this.pending.get(bad.id) : undefined;
    p?.reject(new SluiceError('UPSTREAM_PROTOCOL', `server "${this.server}" sent an invalid answer to ${p.method}: ${bad.reason}`));
    if (bad.requestId !== undefined) {
      const error = { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${bad.reason}` };
      this.transport.send({ jsonrpc: '2.0', id: bad.requestId, error }).catch(() => undefined);
    }
    this.handlers.onInvalid(bad.reason);
  }

  private answer(request: JsonRpcRequest): void {
    const { id } = request;
    this.handlers.onRequest(request).then(
      (result) => this.transport.send(resultMessage(id, result)),
      (err: unknown) => this.transport.send({ jsonrpc: '2.0', id, error: toWire(err) }),
    ).catch(() => undefined);
  }
}
