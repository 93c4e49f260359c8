import {
  ErrorCode,
  errorMessage,
  isNotification,
  isRequest,
  isResponse,
  notification,
  resultMessage,
  RpcError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Params,
} from '../protocol/jsonrpc.js';
import type { MessageTransport } from './transport.js';

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
  resolve(result: Params): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * JSON-RPC over one transport with our own id space: every outgoing request gets a fresh numeric id, so calls
 * from many clients share one upstream connection without their ids ever clashing.
 */
export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedError?: Error;

  constructor(
    private readonly transport: MessageTransport,
    private readonly handlers: PeerHandlers,
  ) {
    transport.onmessage = (m) => this.receive(m);
    const previousClose = transport.onclose;
    transport.onclose = () => {
      this.failAll(new RpcError(ErrorCode.UpstreamUnavailable, 'upstream connection closed'));
      previousClose?.();
    };
  }

  request(method: string, params: Params | undefined, options: RequestOptions): Promise<Params> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<Params>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        this.pending.delete(id);
        options.signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        cleanup();
        void this.notify('notifications/cancelled', { requestId: id, reason: String(options.signal?.reason ?? 'cancelled') });
        reject(new RpcError(ErrorCode.RequestTimeout, 'request cancelled'));
      };
      const timer = setTimeout(() => {
        cleanup();
        void this.notify('notifications/cancelled', { requestId: id, reason: 'timeout' });
        reject(new RpcError(ErrorCode.RequestTimeout, `upstream did not answer ${method} within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      if (options.signal) {
        if (options.signal.aborted) return onAbort();
        options.signal.addEventListener('abort', onAbort, { once: true });
      }
      this.pending.set(id, {
        resolve: (r) => (cleanup(), resolve(r)),
        reject: (e) => (cleanup(), reject(e)),
        timer,
      });
      const message: JsonRpcRequest = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
      this.transport.send(message).catch((err: Error) => this.pending.get(id)?.reject(new RpcError(ErrorCode.UpstreamUnavailable, err.message)));
    });
  }

  notify(method: string, params?: Params): Promise<void> {
    if (this.closedError) return Promise.resolve();
    return this.transport.send(notification(method, params)).catch(() => undefined);
  }

  close(): Promise<void> {
    this.failAll(new RpcError(ErrorCode.UpstreamUnavailable, 'upstream connection closed'));
    return this.transport.close();
  }

  private failAll(err: Error): void {
    this.closedError ??= err;
    for (const p of [...this.pending.values()]) p.reject(err);
  }

  private receive(message: JsonRpcMessage): void {
    if (isResponse(message)) {
      const p = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (!p) return; // late answer to a call that already timed out or was cancelled
      if ('error' in message) p.reject(new RpcError(message.error.code, message.error.message, message.error.data));
      else p.resolve(message.result ?? {});
    } else if (isRequest(message)) {
      this.handlers.onRequest(message).then(
        (result) => this.transport.send(resultMessage(message.id, result)),
        (err: unknown) => {
          const e = err instanceof RpcError ? err : new RpcError(ErrorCode.InternalError, (err as Error).message ?? String(err));
          return this.transport.send(errorMessage(message.id, e.toObject()));
        },
      ).catch(() => undefined);
    } else if (isNotification(message)) {
      this.handlers.onNotification(message);
    }
  }
}
