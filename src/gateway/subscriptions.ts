import { ErrorCode, RpcError } from '../protocol/jsonrpc.js';
import type { Logger } from '../log.js';
import type { Catalog } from './catalog.js';
import type { ClientSession } from './session.js';

/**
 * Resource subscriptions: which sessions hold which URI. The upstream that owns a URI sees one subscription
 * however many clients hold it — the first subscribes, the last to leave unsubscribes.
 *
 * What a session subscribed to (`session.subscriptions`, stored with a legacy session) and what this process
 * asked its upstreams for are kept apart: a legacy HTTP session's stream may be on another replica, and the
 * replica holding the stream is the one that subscribes its own upstreams and delivers the updates — exactly
 * one source, and when that replica dies the stream reopened elsewhere takes the subscriptions with it.
 */
export class Subscriptions {
  private readonly subscribers = new Map<string, Set<ClientSession>>();

  constructor(private readonly log: Logger) {}

  /** The sessions subscribed to `uri` through this process's upstreams. */
  of(uri: string): Iterable<ClientSession> {
    return this.subscribers.get(uri) ?? [];
  }

  async subscribe(session: ClientSession, uri: string, catalog: Catalog): Promise<void> {
    if (!catalog.ownerOfUri(uri)) throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    const known = session.subscriptions.has(uri);
    session.subscriptions.add(uri);
    try {
      if (streamHere(session)) await this.attach(session, uri, catalog);
    } catch (err) {
      if (!known) session.subscriptions.delete(uri);
      throw err;
    }
    if (!known) session.channel.remember?.();
  }

  async unsubscribe(session: ClientSession, uri: string, catalog: Catalog): Promise<void> {
    if (!session.subscriptions.delete(uri)) return;
    session.channel.remember?.();
    await this.detach(session, uri, catalog);
  }

  /** The session's stream is here now: its subscriptions are served from this process's upstreams. */
  async attachAll(session: ClientSession, catalog: Catalog): Promise<void> {
    for (const uri of session.subscriptions) {
      await this.attach(session, uri, catalog).catch((err: Error) => this.log.warn({ session: session.id, uri, err: err.message }, 'could not subscribe upstream'));
    }
  }

  /** The session's stream left (closed here, or the session ended): this process stops serving its subscriptions. */
  async detachAll(session: ClientSession, catalog: Catalog): Promise<void> {
    for (const [uri, set] of this.subscribers) if (set.has(session)) await this.detach(session, uri, catalog);
  }

  /** Brings what this process serves for `session` in line with what it subscribed to (after another replica changed it). */
  async sync(session: ClientSession, catalog: Catalog): Promise<void> {
    for (const [uri, set] of this.subscribers) if (set.has(session) && !session.subscriptions.has(uri)) await this.detach(session, uri, catalog);
    if (streamHere(session)) await this.attachAll(session, catalog);
  }

  private async attach(session: ClientSession, uri: string, catalog: Catalog): Promise<void> {
    const owner = catalog.ownerOfUri(uri);
    if (!owner) throw new RpcError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    let set = this.subscribers.get(uri);
    if (set?.has(session)) return;
    const first = !set || set.size === 0;
    if (!set) this.subscribers.set(uri, (set = new Set()));
    // Registered before asking the upstream, so an update it sends with its answer is not lost.
    set.add(session);
    if (!first) return;
    try {
      await owner.request('resources/subscribe', { uri });
    } catch (err) {
      set.delete(session);
      if (set.size === 0) this.subscribers.delete(uri);
      throw err;
    }
  }

  private async detach(session: ClientSession, uri: string, catalog: Catalog): Promise<void> {
    const set = this.subscribers.get(uri);
    if (!set?.delete(session) || set.size > 0) return;
    this.subscribers.delete(uri);
    await catalog.ownerOfUri(uri)?.request('resources/unsubscribe', { uri }).catch(() => undefined);
  }
}

const streamHere = (session: ClientSession) => session.channel.streamHere?.() ?? true;
