import { lifecycle, type TraceCarrier } from '../lifecycle.js';
import {
  ErrorCode,
  errorMessage,
  isNotification,
  isResponse,
  resultMessage,
  RpcError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
} from '../protocol/jsonrpc.js';
import { SluiceError, toWire } from '../protocol/errors.js';
import { decorateModernResult, MODERN_METHODS } from '../protocol/modern.js';
import type { Gateway } from './gateway.js';
import { HANDLERS, type RequestContext } from './handlers.js';
import { listen } from './listen.js';
import { CLIENT_NOTIFICATIONS, CLIENT_REQUESTS } from '../policy/methods.js';
import { printable } from '../policy/printable.js';
import type { ClientSession } from './session.js';

/** Methods answered without waiting for the upstreams' first connection (negotiation must never wait). */
const NO_WAIT = new Set(['initialize', 'ping', 'server/discover', 'logging/setLevel']);

/** Methods a legacy session may use before it has initialized. */
const BEFORE_INIT = new Set(['initialize', 'ping']);

/**
 * The one dispatcher. Every transport hands it one checked JSON-RPC message and the session it came in on;
 * it returns the response to send (undefined for notifications and responses). Same code whatever the
 * transport.
 */
export async function dispatch(gateway: Gateway, session: ClientSession, message: JsonRpcMessage): Promise<JsonRpcResponse | undefined> {
  session.lastSeen = Date.now();
  if (isResponse(message)) {
    const error = 'error' in message ? message.error : undefined;
    if (!session.settle(message.id as string | number, 'result' in message ? message.result : undefined, error)) session.channel.elsewhere?.(message);
    return undefined;
  }
  if (isNotification(message)) {
    onNotification(gateway, session, message);
    return undefined;
  }
  const request = message as JsonRpcRequest;
  const method = request.method;
  // The method table (policy/methods.ts) decides first: what it does not name, or refuses, is not carried.
  const policy = CLIENT_REQUESTS.get(method);
  const handler = policy?.handling === 'refused' ? undefined : method === 'subscriptions/listen' ? (session.stateless ? listen : undefined) : HANDLERS.get(method);
  if (!policy || !handler || (session.stateless && !MODERN_METHODS.has(method))) {
    return errorMessage(request.id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${printable(method, 100)}` });
  }
  if (!session.initialized && !BEFORE_INIT.has(method)) {
    return errorMessage(request.id, { code: ErrorCode.InvalidRequest, message: `Invalid Request: send "initialize" before "${method}"` });
  }
  // A method answered here that the table says needs an identity: without a role there is nothing to act for.
  // (Checked methods refuse at their own authenticate step, recorded; lists show such a caller nothing.)
  if (policy.handling === 'local' && policy.steps.includes('authenticate') && !gateway.security.role(session.principal)) {
    return errorMessage(request.id, { code: ErrorCode.Forbidden, message: 'sluice refused this request: no identity with a role is attached to this session' });
  }

  const meta = request.params?._meta;
  // MCP says `_meta` is an object: anything else is refused here, before an upstream could drop it silently.
  if (request.params && '_meta' in request.params && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) {
    return errorMessage(request.id, { code: ErrorCode.InvalidParams, message: 'Invalid params: "_meta" must be an object' });
  }
  // A progress token of another type is dropped by upstreams without an answer: the client would wait out the timeout.
  const token = (meta as Params | undefined)?.progressToken;
  if (token !== undefined && typeof token !== 'string' && !(typeof token === 'number' && Number.isFinite(token))) {
    return errorMessage(request.id, { code: ErrorCode.InvalidParams, message: 'Invalid params: "_meta.progressToken" must be a string or a number' });
  }
  // Checked before awaiting: once the upstreams are up (nearly always), this costs no turn of the event loop.
  if (gateway.starting && !NO_WAIT.has(method)) await gateway.firstStart();
  const controller = new AbortController();
  session.inflight.set(request.id, controller);
  const trace = lifecycle.requestStart.active ? startTrace(method, request.params, session) : undefined;
  const ctx: RequestContext = { gateway, session, id: request.id, signal: controller.signal, modern: session.stateless, trace };
  const started = lifecycle.request.active ? performance.now() : 0;
  let errorType: string | undefined;
  try {
    // Inside the try: a session whose servers find no free slot gets the reason as this request's error.
    if (session.dormant.length > 0) await gateway.sessions.wake(session);
    const result = await handler(ctx, request.params ?? {});
    if (result.isError === true) errorType = 'tool_error';
    return resultMessage(request.id, session.stateless ? decorateModernResult(method, result, gateway.serverInfo) : result);
  } catch (err) {
    if (!(err instanceof RpcError) && !(err instanceof SluiceError)) gateway.log.error({ err, method }, 'handler failed');
    const wire = toWire(err);
    errorType = String(wire.code);
    return errorMessage(request.id, wire);
  } finally {
    session.inflight.delete(request.id);
    if (started) lifecycle.request.publish({ method, target: targetOf(method, request.params), transport: session.transport, stateless: session.stateless, durationS: (performance.now() - started) / 1000, errorType, trace });
  }
}

/** Tells a tracer a request began, with the W3C context the client sent in `_meta` (the MCP carrier). */
function startTrace(method: string, params: Params | undefined, session: ClientSession): TraceCarrier {
  const meta = params?._meta as Params | undefined;
  const trace: TraceCarrier = {
    traceparent: typeof meta?.traceparent === 'string' ? meta.traceparent : undefined,
    tracestate: typeof meta?.tracestate === 'string' ? meta.tracestate : undefined,
  };
  lifecycle.requestStart.publish({ method, target: targetOf(method, params), transport: session.transport, stateless: session.stateless, sessionId: session.stateless ? undefined : session.id, trace });
  return trace;
}

/** The name a request acts on (tool, prompt, resource), for telemetry: bounded by the catalog, never an argument. */
function targetOf(method: string, params: Params | undefined): string | undefined {
  const key = method === 'resources/read' || method === 'resources/subscribe' ? 'uri' : method === 'tools/call' || method === 'prompts/get' ? 'name' : undefined;
  const value = key ? params?.[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function onNotification(gateway: Gateway, session: ClientSession, n: JsonRpcNotification): void {
  const params: Params = n.params ?? {};
  const policy = CLIENT_NOTIFICATIONS.get(n.method);
  if (!policy || policy.handling === 'dropped') return gateway.dropped('client', n.method, policy !== undefined);
  switch (n.method) {
    case 'notifications/cancelled': {
      const id = params.requestId;
      if (typeof id !== 'string' && typeof id !== 'number') return;
      const call = session.inflight.get(id);
      if (call) call.abort(params.reason ?? 'cancelled by the client');
      else session.channel.elsewhere?.(n);
      return;
    }
    case 'notifications/roots/list_changed':
      // Only per-session servers see this client's roots; shared ones never do (they serve everyone).
      for (const u of session.ownUpstreams) void u.notify(n.method, n.params);
      return;
    default:
      return; // notifications/initialized: nothing to do
  }
}
