import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { notification, resultMessage, RpcError, type JsonRpcNotification, type JsonRpcRequest, type Params } from '../protocol/jsonrpc.js';
import { SluiceError, toWire } from '../protocol/errors.js';

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PeerHandlers {
  /** A request the other side sends us (sampling, elicitation, roots, ping). */
  onRequest(request: JsonRpcRequest): Promise<Params>;
  onNotification(message: JsonRpcNotification): void;
}

interface Pending {
  deadline: number;
  resolve(result: Params): void;
  reject(err: Error): void;
  /** Gives up on the request: tells the upstream, and fails the caller with `error`. */
  cancel(error: SluiceError, reason: string): void;
  timeoutMessage(): string;
}

/**
 * JSON-RPC over one transport with our own id space: every outgoing request gets a fresh numeric id, so calls
 * from many clients share one upstream connection without their ids ever clashing.
 */
export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedError?: Error;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly transport: Transport,
    private readonly handlers: PeerHandlers,
  ) {
    transport.onmessage = (m) => this.receive(m);
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
      this.transport.send(message).catch((err: Error) => this.pending.get(id)?.reject(new SluiceError('UPSTREAM_UNAVAILABLE', err.message)));
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

  close(): Promise<void> {
    this.failAll(new SluiceError('UPSTREAM_UNAVAILABLE', 'upstream connection closed'));
    return this.transport.close();
  }

  private failAll(err: Error): void {
    this.closedError ??= err;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const p of [...this.pending.values()]) p.reject(err);
  }

  /**
   * Sorted by plain property checks on the SDK's message type (no schema validation on this path). Its error
   * responses may lack an id, where ours carry null, so our own guards do not fit this side of the seam.
   */
  private receive(message: JSONRPCMessage): void {
    if (!('method' in message)) {
      const p = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (!p) return; // late answer to a call that already timed out or was cancelled
      if ('error' in message) p.reject(new RpcError(message.error.code, message.error.message, message.error.data));
      else p.resolve(message.result ?? {});
    } else if ('id' in message && message.id !== undefined) {
      this.answer(message);
    } else {
      this.handlers.onNotification(message);
    }
  }

  private answer(request: JsonRpcRequest): void {
    const { id } = request;
    this.handlers.onRequest(request).then(
      (result) => this.transport.send(resultMessage(id, result)),
      (err: unknown) => this.transport.send({ jsonrpc: '2.0', id, error: toWire(err) }),
    ).catch(() => undefined);
  }
}
