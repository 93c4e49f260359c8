import { lifecycle, type TraceCarrier } from '../lifecycle.js';
import { randomHex } from '../random.js';
import { ErrorCode, notification, RpcError, type Params, type RequestId } from '../protocol/jsonrpc.js';
import { isLocal } from '../protocol/errors.js';
import { stripEnvelope } from '../protocol/modern.js';
import { LEGACY_VERSIONS, MODERN_VERSION } from '../protocol/versions.js';
import type { Upstream } from '../upstream/upstream.js';
import type { Catalog, Held } from './catalog.js';
import type { CallRecord, Gateway } from './gateway.js';
import { argumentsDigest, ParkedCall, type ParkedBinding } from './input-required.js';
import { QUARANTINE_RULE, readRefusalMessage, refusalResult, runChecked, type CheckedRequest } from '../policy/chokepoint.js';
import type { ExecuteContext, Resolved } from '../policy/steps.js';
import type { CheckedMethod } from '../policy/methods.js';
import { toolSecurity } from '../policy/rules.js';
import { labelHolder } from './holder.js';
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

/** How a request is forwarded: to whom, and — for a stateless client's call that may park — what it is bound to. */
interface Forwarding {
  /** The call's binding (method, identity, target, arguments digest) should it park for the client's input. */
  binding?: ParkedBinding;
  /** What the pipeline found on the way: an approval (a parked call keeps it in its requestState) and where the data goes. */
  run?: ExecuteContext;
}

/** Sends one request to an upstream on the client's behalf, tracked so its progress and requests find the client. */
async function forward(ctx: RequestContext, upstream: Upstream, method: string, params: Params, rename?: Params, how: Forwarding = {}): Promise<Params> {
  if (ctx.modern && how.binding) return forwardStateless(ctx, upstream, params, rename, how.binding, how.run);
  const record: CallRecord = { session: ctx.session, requestId: ctx.id, destination: how.run?.destination };
  const fwd = forwardParams(ctx, params, rename, record);
  const trace = traceUpstream(ctx, upstream, method, fwd.params);
  const untrack = ctx.gateway.fanOut.trackCall(upstream, record);
  try {
    const result = await upstream.request(method, fwd.params, { signal: ctx.signal, trace });
    await record.delivering;
    return result;
  } finally {
    untrack();
    fwd.done();
  }
}

/** The methods whose stateless results may be `input_required` (the revision allows it for these only). */
const INPUT_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * What a stateless call is bound to should it park: its method, the caller's identity, its target and a digest
 * of its arguments as the client sent them — the retry repeats them, and must, to resume anything.
 */
function bindingFor(ctx: RequestContext, method: string, target: string, args: unknown): ParkedBinding | undefined {
  if (!ctx.modern || !INPUT_METHODS.has(method)) return undefined;
  return { method, agent: ctx.session.principal?.agent ?? '(none)', target, digest: argumentsDigest(args) };
}

/**
 * A stateless client's call: the same forwarding, but questions the upstream asks meanwhile (sampling,
 * elicitation, roots) park the call and go back as `input_required`; the retry with answers resumes it. The
 * retry reaches here only after the whole pipeline ran again on it, its answers included in what was checked.
 */
async function forwardStateless(ctx: RequestContext, upstream: Upstream, params: Params, rename: Params | undefined, binding: ParkedBinding, run: ExecuteContext | undefined): Promise<Params> {
  let call: ParkedCall;
  if (typeof params.requestState === 'string') {
    const answers = isParams(params.inputResponses) ? params.inputResponses : {};
    const { where } = ctx.gateway.parked.locate(params.requestState, binding);
    if (where !== 'here') {
      // Parked on another replica (no stickiness): the retry goes there; this replica still checks the result.
      const outcome = await ctx.gateway.parkedRelay.resume(where, { requestState: params.requestState, binding, answers }, ctx.signal);
      return 'result' in outcome ? outcome.result : { resultType: 'input_required', inputRequests: outcome.questions, requestState: outcome.requestState };
    }
    call = ctx.gateway.parked.take(params.requestState, binding).call;
    call.record.session = ctx.session;
    call.record.requestId = ctx.id;
    // The retry may ask for progress with a token of its own; progress after the round trip uses it.
    const token = (params._meta as Params | undefined)?.progressToken;
    if (typeof token === 'string' || typeof token === 'number') call.record.progressToken = token;
    call.answer(answers);
  } else {
    const { requestState: _state, inputResponses: _answers, ...clean } = params;
    const record: CallRecord = { session: ctx.session, requestId: ctx.id, destination: run?.destination };
    const fwd = forwardParams(ctx, clean, rename, record);
    const untrack = ctx.gateway.fanOut.trackCall(upstream, record);
    call = new ParkedCall(binding.method, record, (signal) => upstream.request(binding.method, fwd.params, { signal }), () => (untrack(), fwd.done()));
  }
  const outcome = await call.next(ctx.signal);
  await call.record.delivering;
  if ('result' in outcome) return outcome.result;
  return { resultType: 'input_required', inputRequests: outcome.questions, requestState: ctx.gateway.parked.park(call, binding, run?.approved === true) };
}

const isParams = (v: unknown): v is Params => v !== null && typeof v === 'object' && !Array.isArray(v);

function catalogOf(ctx: RequestContext): Catalog {
  return ctx.gateway.catalogFor(ctx.session);
}

/** A checked request as the pipeline takes it: who, what, and how to resolve and run it. */
function checkedRequest(ctx: RequestContext, method: CheckedMethod, target: string, args: Params, parts: Pick<CheckedRequest, 'resolve' | 'execute'> & Partial<CheckedRequest>): CheckedRequest {
  return { method, security: ctx.gateway.security, principal: ctx.session.principal, holder: labelHolder(ctx.gateway.security, ctx.session), transport: ctx.session.transport, target, arguments: args, trace: ctx.trace, ...parts };
}

/**
 * Everything a request forwards beside its own fields (`own`): other params fields, `_meta` as it will travel
 * (without the stateless envelope and the progress token, which sluice strips or replaces) and a retry's
 * answers to the server's questions. All of it is outgoing data, checked with the arguments; undefined when
 * there is none, as for nearly every request.
 */
function outgoingRest(ctx: RequestContext, params: Params, own: readonly string[]): Params | undefined {
  const rest: [string, unknown][] = [];
  for (const key of Object.keys(params)) {
    if (own.includes(key) || key === 'requestState') continue;
    const value = params[key];
    if (key !== '_meta') rest.push([key, value]);
    else {
      const { progressToken: _token, ...meta } = value as Params;
      const kept = ctx.modern ? stripEnvelope(meta) : meta;
      if (kept && Object.keys(kept).length > 0) rest.push([key, kept]);
    }
  }
  // Built from entries: a client's `__proto__` key stays a key.
  return rest.length > 0 ? Object.fromEntries(rest) : undefined;
}

/** A stateless retry's sealed state says a human approved this very call before it parked (checked again when it resumes). */
function approvedBefore(ctx: RequestContext, params: Params, binding: ParkedBinding | undefined): boolean {
  if (!binding || typeof params.requestState !== 'string') return false;
  try {
    return ctx.gateway.parked.locate(params.requestState, binding).approved;
  } catch {
    return false; // refused where it is taken, after the checks, so the refusal is recorded
  }
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
  const binding = bindingFor(ctx, 'tools/call', name, args);
  const outcome = await runChecked(
    checkedRequest(ctx, 'tools/call', name, (args as Params | undefined) ?? {}, {
      outgoing: outgoingRest(ctx, params, ['name', 'arguments']),
      approvedBefore: approvedBefore(ctx, params, binding),
      resolve: () => {
        const route = catalog.toolRoutes.get(name);
        if (route) return { server: catalog.configOf(route.upstream), upstreamName: route.name, definition: catalog.toolDefinitions.get(name) };
        return heldBack(catalog.heldTools.get(name), name);
      },
      execute: async (resolved, checked, run) => {
        const upstream = catalog.toolRoutes.get(name)!.upstream;
        try {
          return await forward(ctx, upstream, 'tools/call', { ...params, arguments: checked }, { name: resolved.upstreamName }, { binding, run });
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
  abandonParked(ctx, params, binding);
  // An unknown name is a protocol error in MCP (the client may have a stale list); every other refusal is a
  // tool result the model reads.
  if (outcome.refusal.step === 'resolve') throw new RpcError(ErrorCode.InvalidParams, outcome.refusal.rule === QUARANTINE_RULE ? outcome.refusal.reason : `Unknown tool: ${name}`);
  return refusalResult(outcome.refusal);
}

/** A retry the pipeline refused: the parked call it would have resumed is given up (its questions fail upstream). */
function abandonParked(ctx: RequestContext, params: Params, binding: ParkedBinding | undefined): void {
  if (binding && typeof params.requestState === 'string') ctx.gateway.parked.abandon(params.requestState, binding);
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
function askClientFor(ctx: RequestContext): ((message: string) => Promise<boolean | undefined>) | undefined {
  if (ctx.session.stateless || !ctx.session.clientCapabilities.elicitation) return undefined;
  // The message holds the whole arguments (approvals/review-text.ts): cutting them would hide what is approved.
  return async (message) => {
    const answer = await ctx.session.request(
      'elicitation/create',
      {
        message,
        requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve this call' } }, required: ['approve'] },
      },
      ctx.id,
      ctx.signal,
    );
    if (answer.action !== 'accept') return answer.action === 'decline' ? false : undefined;
    return (answer.content as Params | undefined)?.approve === true;
  };
}

/** What a checked request other than tools/call needs beside its method, target and arguments. */
interface ReadSpec {
  params: Params;
  /** The params fields the request itself is made of (the rest is outgoing data, checked). */
  own: readonly string[];
  resolve: CheckedRequest['resolve'];
  notFound(): RpcError;
  /** Runs it; `resolved` holds the target in the one form the pipeline checked (a `file:` URI canonicalised). */
  execute(run: ExecuteContext, resolved: Resolved): Promise<Params>;
  binding?: ParkedBinding;
}

/** resources/read, prompts/get, completion/complete, resources/subscribe: a refusal is a JSON-RPC error (they have no isError). */
async function checkedRead(ctx: RequestContext, method: Exclude<CheckedMethod, 'tools/call'>, target: string, args: Params, spec: ReadSpec): Promise<Params> {
  const outcome = await runChecked(
    checkedRequest(ctx, method, target, args, {
      outgoing: outgoingRest(ctx, spec.params, spec.own),
      approvedBefore: approvedBefore(ctx, spec.params, spec.binding),
      resolve: spec.resolve,
      execute: (resolved, _checked, run) => spec.execute(run, resolved),
      traceId: ctx.trace?.traceId ?? traceIdOf(spec.params),
    }),
  );
  if (outcome.ok) return outcome.result;
  abandonParked(ctx, spec.params, spec.binding);
  if (outcome.refusal.step === 'resolve' && outcome.refusal.rule !== QUARANTINE_RULE) throw spec.notFound();
  throw new RpcError(ErrorCode.Forbidden, readRefusalMessage(outcome.refusal), { step: outcome.refusal.step });
}

/** A prompt's arguments: an object of strings, as MCP defines them (anything else would reach the server unchecked in shape). */
function promptArguments(params: Params): Params {
  const args = params.arguments;
  if (args === undefined) return {};
  if (!isParams(args) || Object.values(args).some((v) => typeof v !== 'string')) throw new RpcError(ErrorCode.InvalidParams, '"arguments" must be an object of strings');
  return args;
}

async function getPrompt(ctx: RequestContext, params: Params): Promise<Params> {
  const name = requireString(params, 'name');
  const args = promptArguments(params);
  const catalog = catalogOf(ctx);
  const route = catalog.promptRoutes.get(name);
  const binding = bindingFor(ctx, 'prompts/get', name, args);
  return checkedRead(ctx, 'prompts/get', name, args, {
    params,
    own: ['name', 'arguments'],
    binding,
    resolve: () => (route ? { server: catalog.configOf(route.upstream), upstreamName: route.name } : heldBack(catalog.heldPrompts.get(name), name)),
    notFound: () => new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`),
    execute: (run) => forward(ctx, route!.upstream, 'prompts/get', params, { name: route!.name }, { binding, run }),
  });
}

function resourceNotFound(ctx: RequestContext, uri: string): RpcError {
  // The stateless revision reports a missing resource as invalid params; the legacy ones have their own code.
  return new RpcError(ctx.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

/** How a URI resolves in the caller's catalog: its owner's config, and whether the owner listed it (rather than a client building it). */
function resolveUri(catalog: Catalog, uri: string): ReturnType<CheckedRequest['resolve']> {
  const owner = catalog.ownerOfUri(uri);
  if (!owner) return heldBack(catalog.heldUri(uri), uri);
  return { server: catalog.configOf(owner), upstreamName: uri, listed: catalog.isListed(uri) };
}

async function readResource(ctx: RequestContext, params: Params): Promise<Params> {
  const uri = requireString(params, 'uri');
  const catalog = catalogOf(ctx);
  const binding = bindingFor(ctx, 'resources/read', uri, {});
  return checkedRead(ctx, 'resources/read', uri, {}, {
    params,
    own: ['uri'],
    binding,
    resolve: () => resolveUri(catalog, uri),
    notFound: () => resourceNotFound(ctx, uri),
    // The URI in the one form the pipeline checked (a file: URI canonicalised), not as the client spelled it.
    execute: (run, resolved) => forward(ctx, catalog.ownerOfUri(uri)!, 'resources/read', params, { uri: resolved.upstreamName }, { binding, run }),
  });
}

/** resources/subscribe (and each URI a stateless listen stream asks for): the checks of a read of that URI. */
export async function subscribe(ctx: RequestContext, params: Params): Promise<Params> {
  const uri = requireString(params, 'uri');
  const catalog = catalogOf(ctx);
  return checkedRead(ctx, 'resources/subscribe', uri, {}, {
    params,
    own: ['uri'],
    resolve: () => resolveUri(catalog, uri),
    notFound: () => resourceNotFound(ctx, uri),
    execute: async () => (await ctx.gateway.subscriptions.subscribe(ctx.session, uri, catalog), {}),
  });
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

/**
 * completion/complete: the value typed so far (and the other arguments in `context`) is data going to the
 * server, checked like a prompt's arguments; the suggestions that come back are content.
 */
async function complete(ctx: RequestContext, params: Params): Promise<Params> {
  const ref = params.ref;
  if (!isParams(ref)) throw new RpcError(ErrorCode.InvalidParams, '"ref" must be an object');
  if (!isParams(params.argument)) throw new RpcError(ErrorCode.InvalidParams, '"argument" must be an object with "name" and "value"');
  const catalog = catalogOf(ctx);
  const args: Params = { argument: params.argument, ...(params.context === undefined ? {} : { context: params.context }) };
  const own = ['ref', 'argument', 'context'];
  if (ref.type === 'ref/prompt') {
    const name = typeof ref.name === 'string' ? ref.name : '';
    const route = catalog.promptRoutes.get(name);
    return checkedRead(ctx, 'completion/complete', name, args, {
      params,
      own,
      resolve: () => (route ? { server: catalog.configOf(route.upstream), upstreamName: route.name } : heldBack(catalog.heldPrompts.get(name), name)),
      notFound: () => new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`),
      execute: (run) => forward(ctx, route!.upstream, 'completion/complete', params, { ref: { ...ref, name: route!.name } }, { run }),
    });
  }
  if (ref.type === 'ref/resource') {
    const uri = typeof ref.uri === 'string' ? ref.uri : '';
    const owner = catalog.ownerOfTemplate(uri) ?? catalog.ownerOfUri(uri);
    return checkedRead(ctx, 'completion/complete', uri, args, {
      params,
      own,
      resolve: () => (owner ? { server: catalog.configOf(owner), upstreamName: uri } : heldBack(catalog.heldUri(uri), uri)),
      notFound: () => resourceNotFound(ctx, uri),
      execute: (run) => forward(ctx, owner!, 'completion/complete', params, undefined, { run }),
    });
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
  ['prompts/list', async (ctx, p) => paginate(ctx.gateway.security.visibleToRole(ctx.session.principal, catalogOf(ctx).prompts), 'prompts', cursorOf(p), ctx.gateway.config.pageSize)],
  ['resources/list', async (ctx, p) => paginate(ctx.gateway.security.visibleResources(ctx.session.principal, catalogOf(ctx).resources), 'resources', cursorOf(p), ctx.gateway.config.pageSize)],
  ['resources/templates/list', async (ctx, p) => paginate(ctx.gateway.security.visibleToRole(ctx.session.principal, catalogOf(ctx).resourceTemplates), 'resourceTemplates', cursorOf(p), ctx.gateway.config.pageSize)],
  ['tools/call', callTool],
  ['prompts/get', getPrompt],
  ['resources/read', readResource],
  ['resources/subscribe', subscribe],
  ['resources/unsubscribe', async (ctx, p) => (await ctx.gateway.subscriptions.unsubscribe(ctx.session, requireString(p, 'uri'), catalogOf(ctx)), {})],
  ['completion/complete', complete],
  ['logging/setLevel', setLevel],
]);
