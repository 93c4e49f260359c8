import { ErrorCode, RpcError } from '../protocol/jsonrpc.js';
import type { Catalog } from './catalog.js';
import type { ClientSession } from './session.js';

/**
 * Resource subscriptions: which sessions hold which URI. The upstream that owns a URI sees one subscription
 * however many clients hold it — the first subscribes, the last to leave unsubscribes.
 */
export class Subscriptions {
  private readonly subscribers = new Map<string, Set<ClientSession>>();

  /** The sessions subscribed to `uri`. */
  of(uri: string): Iterable<ClientSession> {
    return this.subscribers.get(uri) ?? [];
  }

  async subscribe(session: ClientSession, uri: string, catalog: Catalog): Promise<void> {
    const owner = catalog.ownerOfUri(uri);
    if (!owner) throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    let set = this.subscribers.get(uri);
    const first = !set || set.size === 0;
    if (!set) this.subscribers.set(uri, (set = new Set()));
    // Registered before asking the upstream, so an update it sends with its answer is not lost.
    set.add(session);
    session.subscriptions.add(uri);
    if (!first) return;
    try {
      await owner.request('resources/subscribe', { uri });
    } catch (err) {
      set.delete(session);
      session.subscriptions.delete(uri);
      if (set.size === 0) this.subscribers.delete(uri);
      throw err;
    }
  }

  async unsubscribe(session: ClientSession, uri: string, catalog: Catalog): Promise<void> {
    const set = this.subscribers.get(uri);
    session.subscriptions.delete(uri);
    if (!set?.delete(session) || set.size > 0) return;
    this.subscribers.delete(uri);
    await catalog.ownerOfUri(uri)?.request('resources/unsubscribe', { uri }).catch(() => undefined);
  }
}
