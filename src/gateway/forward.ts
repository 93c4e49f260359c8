import { lifecycle, type TraceCarrier } from '../lifecycle.js';
import type { ExecuteContext } from '../policy/checked-request.js';
import type { Params } from '../protocol/jsonrpc.js';
import { stripEnvelope } from '../protocol/modern.js';
import type { Upstream } from '../upstream/upstream.js';
import type { CallRecord } from './calls.js';
import { argumentsDigest, ParkedCall, type ParkedBinding } from './input-required.js';
import { isParams, type RequestContext } from './request-context.js';

/**
 * How a checked request reaches its upstream: params copied for it (names, progress token, envelope), tracked so
 * what the upstream sends meanwhile finds the client, and — for a stateless client — parked while the upstream
 * waits for the client's answers, bound to the call it was issued for.
 */

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
export async function forward(ctx: RequestContext, upstream: Upstream, method: string, params: Params, rename?: Params, how: Forwarding = {}): Promise<Params> {
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
export function bindingFor(ctx: RequestContext, method: string, target: string, args: unknown): ParkedBinding | undefined {
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

/**
 * Everything a request forwards beside its own fields (`own`): other params fields, `_meta` as it will travel
 * (without the stateless envelope and the progress token, which sluice strips or replaces) and a retry's
 * answers to the server's questions. All of it is outgoing data, checked with the arguments; undefined when
 * there is none, as for nearly every request.
 */
export function outgoingRest(ctx: RequestContext, params: Params, own: readonly string[]): Params | undefined {
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
export function approvedBefore(ctx: RequestContext, params: Params, binding: ParkedBinding | undefined): boolean {
  if (!binding || typeof params.requestState !== 'string') return false;
  try {
    return ctx.gateway.parked.locate(params.requestState, binding).approved;
  } catch {
    return false; // refused where it is taken, after the checks, so the refusal is recorded
  }
}

/** A retry the pipeline refused: the parked call it would have resumed is given up (its questions fail upstream). */
export function abandonParked(ctx: RequestContext, params: Params, binding: ParkedBinding | undefined): void {
  if (binding && typeof params.requestState === 'string') ctx.gateway.parked.abandon(params.requestState, binding);
}

