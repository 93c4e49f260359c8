import { randomHex } from '../random.js';
import { ErrorCode, notification, RpcError, type Params } from '../protocol/jsonrpc.js';
import { isLocal } from '../protocol/errors.js';
import { QUARANTINE_RULE, readRefusalMessage, refusalResult, runChecked, type CheckedRequest } from '../policy/chokepoint.js';
import type { ExecuteContext, Resolved } from '../policy/checked-request.js';
import type { CheckedMethod } from '../policy/methods.js';
import type { Catalog, Held } from './catalog.js';
import { abandonParked, approvedBefore, bindingFor, forward, outgoingRest } from './forward.js';
import { labelHolder } from './holder.js';
import type { ParkedBinding } from './input-required.js';
import { catalogOf, isParams, requireString, type RequestContext } from './request-context.js';

/**
 * The handlers of the checked methods (policy/methods.ts): each builds the request the pipeline takes — who,
 * what, how to resolve it in the caller's catalog and how to run it — and turns a refusal into what the
 * client expects (a tool result with isError, or a JSON-RPC error).
 */

/** A checked request as the pipeline takes it: who, what, and how to resolve and run it. */
function checkedRequest(ctx: RequestContext, method: CheckedMethod, target: string, args: Params, parts: Pick<CheckedRequest, 'resolve' | 'execute'> & Partial<CheckedRequest>): CheckedRequest {
  return { method, security: ctx.gateway.security, principal: ctx.session.principal, holder: labelHolder(ctx.gateway.security, ctx.session), transport: ctx.session.transport, target, arguments: args, trace: ctx.trace, ...parts };
}

/**
 * tools/call. Every tool call, whatever the transport or revision, goes through the pipeline — resolving the
 * name included, so an unknown or look-alike name is refused (and recorded) after pause and rate limit.
 */
export async function callTool(ctx: RequestContext, params: Params): Promise<Params> {
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

export async function getPrompt(ctx: RequestContext, params: Params): Promise<Params> {
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

export async function readResource(ctx: RequestContext, params: Params): Promise<Params> {
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

/**
 * completion/complete: the value typed so far (and the other arguments in `context`) is data going to the
 * server, checked like a prompt's arguments; the suggestions that come back are content.
 */
export async function complete(ctx: RequestContext, params: Params): Promise<Params> {
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

