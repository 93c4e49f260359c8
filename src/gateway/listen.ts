import { ErrorCode, notification, RpcError, type Params } from '../protocol/jsonrpc.js';
import { META } from '../protocol/modern.js';
import { subscribe } from './checked-handlers.js';
import type { RequestContext } from './request-context.js';
import type { Listener } from './gateway.js';

/** Each URI of a listen stream is a checked and recorded subscription: a bound on how many one request may ask. */
const MAX_LISTEN_URIS = 1000;

/**
 * `subscriptions/listen` (stateless revision): the client's one long-lived stream of list changes and resource
 * updates. First an acknowledgement naming what we will actually send; then notifications until the client
 * goes away; then a final result.
 */
export async function listen(ctx: RequestContext, params: Params): Promise<Params> {
  const wanted = params.notifications as Params | undefined;
  if (!wanted || typeof wanted !== 'object' || Array.isArray(wanted)) {
    throw new RpcError(ErrorCode.InvalidParams, '"notifications" must be an object naming what to listen for');
  }
  const asked = Array.isArray(wanted.resourceSubscriptions) ? wanted.resourceSubscriptions.filter((u): u is string => typeof u === 'string') : [];
  if (asked.length > MAX_LISTEN_URIS) throw new RpcError(ErrorCode.InvalidParams, `"resourceSubscriptions" may name at most ${MAX_LISTEN_URIS} URIs, not ${asked.length}`);
  const gateway = ctx.gateway;
  // Resource updates need an upstream subscription, which the listener's session holds while the stream is
  // open; each is checked (and recorded) as a resources/subscribe, and only what could be subscribed is
  // acknowledged — a URI nobody offers, or the role may not read, is not quietly promised.
  const uris: string[] = [];
  for (const uri of new Set(asked)) {
    if (await subscribe(ctx, { uri }).then(() => true, () => false)) uris.push(uri);
  }
  const listener: Listener = {
    session: ctx.session,
    channel: ctx.session.channel,
    id: ctx.id,
    filter: { tools: wanted.toolsListChanged === true, prompts: wanted.promptsListChanged === true, resources: wanted.resourcesListChanged === true, uris: new Set(uris) },
  };
  const honoured: Params = {};
  if (listener.filter.tools) honoured.toolsListChanged = true;
  if (listener.filter.prompts) honoured.promptsListChanged = true;
  if (listener.filter.resources) honoured.resourcesListChanged = true;
  if (uris.length > 0) honoured.resourceSubscriptions = uris;
  ctx.session.channel.send(notification('notifications/subscriptions/acknowledged', { notifications: honoured, _meta: { [META.subscriptionId]: ctx.id } }), ctx.id);
  if (Object.keys(honoured).length === 0) return { _meta: { [META.subscriptionId]: ctx.id } };

  gateway.fanOut.listeners.add(listener);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  gateway.fanOut.listeners.delete(listener);
  for (const uri of uris) await gateway.subscriptions.unsubscribe(ctx.session, uri, gateway.catalogFor(ctx.session));
  return { _meta: { [META.subscriptionId]: ctx.id } };
}
