import { ErrorCode, RpcError, type Params } from '../protocol/jsonrpc.js';
import { LEGACY_VERSIONS, MODERN_VERSION } from '../protocol/versions.js';
import { toolSecurity } from '../policy/rules.js';
import { callTool, complete, getPrompt, readResource, subscribe } from './checked-handlers.js';
import { mergedInstructions } from './instructions.js';
import { paginate } from './paginate.js';
import { LOG_LEVELS } from './fan-out.js';
import { catalogOf, isParams, requireString, type Handler, type RequestContext } from './request-context.js';

export type { Handler, RequestContext } from './request-context.js';

/** What sluice offers every client; fixed, because upstreams may come and go after a client connected. */
export const GATEWAY_CAPABILITIES: Params = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};

function cursorOf(params: Params): string | undefined {
  const c = params.cursor;
  if (c !== undefined && typeof c !== 'string') throw new RpcError(ErrorCode.InvalidParams, '"cursor" must be a string');
  return c;
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

async function setLevel(ctx: RequestContext, params: Params): Promise<Params> {
  const level = requireString(params, 'level');
  if (!LOG_LEVELS.includes(level)) throw new RpcError(ErrorCode.InvalidParams, `"level" must be one of ${LOG_LEVELS.join(', ')}`);
  await ctx.gateway.fanOut.setLogLevel(ctx.session, level);
  return {};
}

/** What is wrong with initialize's params, per the spec's shape; undefined when nothing is. No session opens otherwise. */
function initializeProblem(params: Params): string | undefined {
  if (typeof params.protocolVersion !== 'string') return '"protocolVersion" must be a string';
  if (!isParams(params.capabilities)) return '"capabilities" must be an object';
  const info = params.clientInfo;
  if (!isParams(info)) return '"clientInfo" must be an object with "name" and "version"';
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
