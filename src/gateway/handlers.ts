import { lifecycle, type TraceCarrier } from '../lifecycle.js';
import { randomHex } from '../random.js';
import { ErrorCode, notification, RpcError, type Params, type RequestId } from '../protocol/jsonrpc.js';
import { isLocal } from '../protocol/errors.js';
import { stripEnvelope } from '../protocol/modern.js';
import { LEGACY_VERSIONS, MODERN_VERSION } from '../protocol/versions.js';
import type { ServerConfig } from '../config/schema.js';
import type { Upstream } from '../upstream/upstream.js';
import type { Catalog, Held } from './catalog.js';
import type { CallRecord, Gateway } from './gateway.js';
import { ParkedCall } from './input-required.js';
import { QUARANTINE_RULE, readRefusalMessage, refusalResult, runChecked, type CheckedRequest } from '../policy/chokepoint.js';
import type { LabelHolder } from '../state/ports.js';
import { toolSecurity } from '../policy/rules.js';
import { mergedInstructions } from './instructions.js';
import { paginate } from './paginate.js';
import type { ClientSession } from './session.js';

/** What a handler knows about the request it serves. */
export interface RequestContext {
  gateway: Gateway;
  session: ClientSession;
  id: RequestId;
  /** Aborted when the client cancels or goes away. */
  signal: AbortSignal;
  modern: boolean;
  /** The request's trace, when a tracer listens. */
  trace?: TraceCarrier;
}

export type Handler = (ctx: RequestContext, params: Params) => Promise<Params>;

/** What sluice offers every client; fixed, because upstreams may come and go after a client connected. */
export const GATEWAY_CAPABILITIES: Params = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};


function requireString(params: Params, key: string): string {
  const v = params[key];
  if (typeof v !== 'string' || v === '') throw new RpcError(ErrorCode.InvalidParams, `"${key}" must be a non-empty string`);
  return v;
}

function cursorOf(params: Params): string | undefined {
  const c = params.cursor;
  if (c !== undefined && typeof c !== 'string') throw new RpcError(ErrorCode.InvalidParams, '"cursor" must be a string');
  return c;
}

/**
 * Copies params for the upstream: the merged name replaced by the upstream's own, the client's progress token
 * replaced by one of ours, and the stateless envelope removed (upstreams speak the legacy revisions).
 */
function forwardParams(ctx: RequestContext, params: Params, rename: Params | undefined, record: CallRecord): { params: Params; done(): void } {
  const out: Params = rename ? { ...params, ...rename } : { ...params };
  let release = () => {};
  const meta = params._meta as Params | undefined;
  if (meta) {
    const kept = ctx.modern ? stripEnvelope(meta) : { ...meta };
    const token = meta.progressToken;
    if (kept && (typeof token === 'string' || typeof token === 'number')) {
      record.progressToken = token;
      const mapped = ctx.gateway.fanOut.mapProgressToken(record);
      kept.progressToken = mapped.token;
      release = mapped.release;
    }
    if (kept) out._meta = kept;
    else delete out._meta;
  }
  return { params: out, done: release };
}

/**
 * With a tracer listening: the upstream call's own span, child of the request's, and its context stamped into
 * the outgoing `_meta` — over stdio the only carrier there is.
 */
function traceUpstream(ctx: RequestContext, upstream: Upstream, method: string, out: Params): TraceCarrier | undefined {
  if (!ctx.trace || !lifecycle.upstreamStart.active) return undefined;
  const meta: Params = { ...((out._meta as Params | undefined) ?? {}) };
  const trace: TraceCarrier = {};
  const target = typeof out.name === 'string' ? out.name : typeof out.uri === 'string' ? out.uri : undefined;
  lifecycle.upstreamStart.publish({ server: upstream.name, method, target, parent: ctx.trace, meta, trace });
  if (Object.keys(meta).length > 0) out._meta = meta;
  return trace;
}

/** Sends one request to an upstream on the client's behalf, tracked so its progress and requests find the client. */
async function forward(ctx: RequestContext, upstream: Upstream, method: string, params: Params, rename?: Params): Promise<Params> {
  if (ctx.modern && INPUT_METHODS.has(method)) return forwardStateless(ctx, upstream, method, params, rename);
  const record: CallRecord = { session: ctx.session, requestId: ctx.id };
  const fwd = forwardParams(ctx, params, rename, record);
  const trace = traceUpstream(ctx, upstream, method, fwd.params);
  const untrack = ctx.gateway.fanOut.trackCall(upstream, record);
  try {
    return await upstream.request(method, fwd.params, { signal: ctx.signal, trace });
  } finally {
    untrack();
    fwd.done();
  }
}

/** The methods whose stateless results may be `input_required` (the revision allows it for these only). */
const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * A stateless client's call: the same forwarding, but questions the upstream asks meanwhile (sampling,
 * elicitation, roots) park the call and go back as `input_required`; the retry with answers resumes it.
 */
async function forwardStateless(ctx: RequestContext, upstream: Upstream, method: string, params: Params, rename?: Params): Promise<Params> {
  let call: ParkedCall;
  const agent = ctx.session.principal?.agent ?? '(none)';
  if (typeof params.requestState === 'string') {
    const answers = params.inputResponses;
    const where = ctx.gateway.parked.locate(params.requestState, method, agent);
    if (where !== 'here') {
      // Parked on another replica (no stickiness): the retry goes there; this replica still checks the result.
      const outcome = await ctx.gateway.parkedRelay.resume(where, { requestState: params.requestState, method, agent, answers: isParams(answers) ? answers : {} }, ctx.signal);
      return 'result' in outcome ? outcome.result : { resultType: 'input_required', inputRequests: outcome.questions, requestState: outcome.requestState };
    }
    call = ctx.gateway.parked.take(params.requestState, method, agent);
    call.record.session = ctx.session;
    call.record.requestId = ctx.id;
    // The retry may ask for progress with a token of its own; progress after the round trip uses it.
    const token = (params._meta as Params | undefined)?.progressToken;
    if (typeof token === 'string' || typeof token === 'number') call.record.progressToken = token;
    call.answer(isParams(answers) ? answers : {});
  } else {
    const { requestState: _state, inputResponses: _answers, ...clean } = params;
    const record: CallRecord = { session: ctx.session, requestId: ctx.id };
    const fwd = forwardParams(ctx, clean, rename, record);
    const untrack = ctx.gateway.fanOut.trackCall(upstream, record);
    call = new ParkedCall(method, record, (signal) => upstream.request(method, fwd.params, { signal }), () => (untrack(), fwd.done()));
  }
  const outcome = await call.next(ctx.signal);
  if ('result' in outcome) return outcome.result;
  return { resultType: 'input_required', inputRequests: outcome.questions, requestState: ctx.gateway.parked.park(call, agent) };
}

const isParams = (v: unknown): v is Params => v !== null && typeof v === 'object' && !Array.isArray(v);

function catalogOf(ctx: RequestContext): Catalog {
  return ctx.gateway.catalogFor(ctx.session);
}

/** Who a request is, for the label store: a stateless request is its identity, a session is itself. */
function holderOf(ctx: RequestContext): LabelHolder {
  const isolated = ctx.gateway.security.role(ctx.session.principal)?.isolateSessions === true;
  return { id: ctx.session.id, agent: ctx.session.principal?.agent ?? '(none)', stateless: ctx.session.stateless, isolated };
}

/** A tools/call, resources/read or prompts/get as the pipeline takes it: who, what, and how to resolve and run it. */
function checkedRequest(ctx: RequestContext, method: CheckedRequest['method'], target: string, args: Params, parts: Pick<CheckedRequest, 'resolve' | 'execute'> & Partial<CheckedRequest>): CheckedRequest {
  return { method, security: ctx.gateway.security, principal: ctx.session.principal, holder: holderOf(ctx), transport: ctx.session.transport, target, arguments: args, trace: ctx.trace, ...parts };
}

/**
 * tools/call. Every tool call, whatever the transport or revision, goes through the pipeline — resolving the
 * name included, so an unknown or look-alike name is refused (and recorded) after pause and rate limit.
 */
async function callTool(ctx: RequestContext, params: Params): Promise<Params> {
  const name = requireString(params, 'name');
  const args = params.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    throw new RpcError(ErrorCode.InvalidParams, '"arguments" must be an object');
  }
  const catalog = catalogOf(ctx);
  const outcome = await runChecked(
    checkedRequest(ctx, 'tools/call', name, (args as Params | undefined) ?? {}, {
      resolve: () => {
        const route = catalog.toolRoutes.get(name);
        if (route) return { server: catalog.configOf(route.upstream), upstreamName: route.name, definition: catalog.toolDefinitions.get(name) };
        return heldBack(catalog.heldTools.get(name), name);
      },
      execute: async (resolved, checked) => {
        const upstream = catalog.toolRoutes.get(name)!.upstream;
        try {
          return await forward(ctx, upstream, 'tools/call', { ...params, arguments: checked }, { name: resolved.upstreamName });
        } catch (err) {
          // The server went away or never answered: that is the tool failing, which the model should read, not a
          // protocol fault. A client's own cancellation stays an error: nobody is waiting for a result.
          if (isLocal(err, 'UPSTREAM_PROTOCOL')) {
            return { content: [{ type: 'text', text: `Tool ${name} failed: ${err.message}` }], isError: true };
          }
          if (isLocal(err, 'UPSTREAM_UNAVAILABLE')) {
            return { content: [{ type: 'text', text: `Tool ${name} failed: server "${upstream.name}" is unavailable (${err.message})` }], isError: true };
          }
          if (isLocal(err, 'UPSTREAM_TIMEOUT') && !ctx.signal.aborted) {
            return { content: [{ type: 'text', text: `Tool ${name} failed: ${err.message}` }], isError: true };
          }
          throw err;
        }
      },
      traceId: ctx.trace?.traceId ?? traceIdOf(params),
      keepAlive: keepAliveFor(ctx, params),
      askClient: askClientFor(ctx),
    }),
  );
  if (outcome.ok) return outcome.result;
  // An unknown name is a protocol error in MCP (the client may have a stale list); every other refusal is a
  // tool result the model reads.
  if (outcome.refusal.step === 'resolve') throw new RpcError(ErrorCode.InvalidParams, outcome.refusal.rule === QUARANTINE_RULE ? outcome.refusal.reason : `Unknown tool: ${name}`);
  return refusalResult(outcome.refusal);
}

/** A held-back definition's refusal: what it is, why, and what an operator does about it. */
function heldBack(held: Held | undefined, shownAs: string): { heldBack: string } | undefined {
  if (!held) return undefined;
  const what = `${held.kind} "${shownAs}"${shownAs === held.name ? '' : ` (${held.name} of server "${held.server}")`}`;
  const next = held.status === 'unreviewed' ? '' : `; an operator can look at it with \`sluice definitions diff ${shownAs}\` and approve it`;
  return { heldBack: `${what} is ${held.status === 'unreviewed' ? 'held back' : held.status}: ${held.reason}${next}` };
}

/** The W3C trace id a client sent in `_meta.traceparent`, else a fresh one. */
function traceIdOf(params: Params): string {
  const parent = (params._meta as Params | undefined)?.traceparent;
  const m = typeof parent === 'string' ? /^[0-9a-f]{2}-([0-9a-f]{32})-/.exec(parent) : null;
  return m ? m[1] : randomHex(16);
}

/** While a call waits for a human, progress notifications tell the client it is still being worked on. */
function keepAliveFor(ctx: RequestContext, params: Params): ((message: string) => void) | undefined {
  const token = (params._meta as Params | undefined)?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let progress = 0;
  return (message) => ctx.session.channel.send(notification('notifications/progress', { progressToken: token, progress: ++progress, message }), ctx.id);
}

/** Asks the client's own user to approve, through elicitation — only a legacy session can be asked mid-call. */
function askClientFor(ctx: RequestContext): ((message: string, args: Params) => Promise<boolean | undefined>) | undefined {
  if (ctx.session.stateless || !ctx.session.clientCapabilities.elicitation) return undefined;
  return async (message, args) => {
    const answer = await ctx.session.request(
      'elicitation/create',
      {
        message: `${message}\nArguments: ${JSON.stringify(args).slice(0, 2000)}`,
        requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve this call' } }, required: ['approve'] },
      },
      ctx.id,
      ctx.signal,
    );
    if (answer.action !== 'accept') return answer.action === 'decline' ? false : undefined;
    return (answer.content as Params | undefined)?.approve === true;
  };
}

/** resources/read and prompts/get: the lighter checks; a refusal is a JSON-RPC error (they have no isError). */
async function checkedRead(ctx: RequestContext, method: 'resources/read' | 'prompts/get', target: string, server: ServerConfig | undefined, upstreamName: string, held: Held | undefined, notFound: () => RpcError, execute: CheckedRequest['execute']): Promise<Params> {
  const outcome = await runChecked(
    checkedRequest(ctx, method, target, {}, {
      resolve: () => (server ? { server, upstreamName } : heldBack(held, target)),
      execute,
    }),
  );
  if (outcome.ok) return outcome.result;
  if (outcome.refusal.step === 'resolve' && outcome.refusal.rule !== QUARANTINE_RULE) throw notFound();
  throw new RpcError(ErrorCode.Forbidden, readRefusalMessage(outcome.refusal), { step: outcome.refusal.step });
}

async function getPrompt(ctx: RequestContext, params: Params): Promise<Params> {
  const name = requireString(params, 'name');
  const catalog = catalogOf(ctx);
  const route = catalog.promptRoutes.get(name);
  return checkedRead(ctx, 'prompts/get', name, route && catalog.configOf(route.upstream), route?.name ?? name, catalog.heldPrompts.get(name), () => new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`), () =>
    forward(ctx, route!.upstream, 'prompts/get', params, { name: route!.name }),
  );
}

function resourceNotFound(ctx: RequestContext, uri: string): RpcError {
  // The stateless revision reports a missing resource as invalid params; the legacy ones have their own code.
  return new RpcError(ctx.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

async function readResource(ctx: RequestContext, params: Params): Promise<Params> {
  const uri = requireString(params, 'uri');
  const catalog = catalogOf(ctx);
  const owner = catalog.ownerOfUri(uri);
  return checkedRead(ctx, 'resources/read', uri, owner && catalog.configOf(owner), uri, owner ? undefined : catalog.heldUri(uri), () => resourceNotFound(ctx, uri), (checked) =>
    // The URI in the one form the pipeline checked (a file: URI canonicalised), not as the client spelled it.
    forward(ctx, owner!, 'resources/read', params, { uri: checked.upstreamName }),
  );
}

/** The tools this session's role may see. */
function listTools(ctx: RequestContext, params: Params): Params {
  const catalog = catalogOf(ctx);
  const visible = ctx.gateway.security.visibleTools(ctx.session.principal, catalog.tools, (name) => {
    const route = catalog.toolRoutes.get(name);
    return route ? toolSecurity(route.upstream.config.tools, route.name) : undefined;
  });
  return paginate(visible, 'tools', cursorOf(params), ctx.gateway.config.pageSize);
}

async function complete(ctx: RequestContext, params: Params): Promise<Params> {
  const ref = params.ref as Params | undefined;
  if (!ref || typeof ref !== 'object') throw new RpcError(ErrorCode.InvalidParams, '"ref" must be an object');
  const catalog = catalogOf(ctx);
  if (ref.type === 'ref/prompt') {
    const route = catalog.promptRoutes.get(String(ref.name));
    if (!route) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`);
    return forward(ctx, route.upstream, 'completion/complete', params, { ref: { ...ref, name: route.name } });
  }
  if (ref.type === 'ref/resource') {
    const uri = String(ref.uri);
    const owner = catalog.ownerOfTemplate(uri) ?? catalog.ownerOfUri(uri);
    if (!owner) throw resourceNotFound(ctx, uri);
    return forward(ctx, owner, 'completion/complete', params);
  }
  throw new RpcError(ErrorCode.InvalidParams, '"ref.type" must be "ref/prompt" or "ref/resource"');
}

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

async function setLevel(ctx: RequestContext, params: Params): Promise<Params> {
  const level = requireString(params, 'level');
  if (!LEVELS.includes(level)) throw new RpcError(ErrorCode.InvalidParams, `"level" must be one of ${LEVELS.join(', ')}`);
  await ctx.gateway.fanOut.setLogLevel(ctx.session, level);
  return {};
}

const isObject = (v: unknown): v is Params => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What is wrong with initialize's params, per the spec's shape; undefined when nothing is. No session opens otherwise. */
function initializeProblem(params: Params): string | undefined {
  if (typeof params.protocolVersion !== 'string') return '"protocolVersion" must be a string';
  if (!isObject(params.capabilities)) return '"capabilities" must be an object';
  const info = params.clientInfo;
  if (!isObject(info)) return '"clientInfo" must be an object with "name" and "version"';
  if (typeof info.name !== 'string' || typeof info.version !== 'string') return '"clientInfo.name" and "clientInfo.version" must be strings';
  return undefined;
}

async function initialize(ctx: RequestContext, params: Params): Promise<Params> {
  const session = ctx.session;
  if (session.initialized) throw new RpcError(ErrorCode.InvalidRequest, 'Invalid Request: Server already initialized');
  const problem = initializeProblem(params);
  if (problem) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${problem}`);
  const requested = params.protocolVersion as string;
  const version = (LEGACY_VERSIONS as readonly string[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
  session.protocolVersion = version;
  session.clientInfo = params.clientInfo as Params | undefined;
  session.clientCapabilities = (params.capabilities as Params | undefined) ?? {};
  await ctx.gateway.sessions.startOwnServers(session);
  session.initialized = true;
  ctx.gateway.sessions.register(session);
  return { protocolVersion: version, capabilities: GATEWAY_CAPABILITIES, serverInfo: ctx.gateway.serverInfo, instructions: mergedInstructions(ctx.gateway.upstreamsFor(session), catalogOf(ctx).heldInstructions) };
}

/** Every method sluice answers, by name. Looked up with Map.get, so a method name can never reach a prototype. */
export const HANDLERS = new Map<string, Handler>([
  ['initialize', initialize],
  ['ping', async () => ({})],
  ['server/discover', async (ctx) => ({ supportedVersions: [MODERN_VERSION], capabilities: GATEWAY_CAPABILITIES, instructions: mergedInstructions(ctx.gateway.upstreams, ctx.gateway.catalog.heldInstructions) })],
  ['tools/list', async (ctx, p) => listTools(ctx, p)],
  ['prompts/list', async (ctx, p) => paginate(catalogOf(ctx).prompts, 'prompts', cursorOf(p), ctx.gateway.config.pageSize)],
  ['resources/list', async (ctx, p) => paginate(catalogOf(ctx).resources, 'resources', cursorOf(p), ctx.gateway.config.pageSize)],
  ['resources/templates/list', async (ctx, p) => paginate(catalogOf(ctx).resourceTemplates, 'resourceTemplates', cursorOf(p), ctx.gateway.config.pageSize)],
  ['tools/call', callTool],
  ['prompts/get', getPrompt],
  ['resources/read', readResource],
  ['resources/subscribe', async (ctx, p) => (await ctx.gateway.subscriptions.subscribe(ctx.session, requireString(p, 'uri'), catalogOf(ctx)), {})],
  ['resources/unsubscribe', async (ctx, p) => (await ctx.gateway.subscriptions.unsubscribe(ctx.session, requireString(p, 'uri'), catalogOf(ctx)), {})],
  ['completion/complete', complete],
  ['logging/setLevel', setLevel],
]);
