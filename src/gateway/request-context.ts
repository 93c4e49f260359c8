import type { TraceCarrier } from '../lifecycle.js';
import { ErrorCode, RpcError, type Params, type RequestId } from '../protocol/jsonrpc.js';
import type { Catalog } from './catalog.js';
import type { Gateway } from './gateway.js';
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

/** A params field that must be a non-empty string. */
export function requireString(params: Params, key: string): string {
  const v = params[key];
  if (typeof v !== 'string' || v === '') throw new RpcError(ErrorCode.InvalidParams, `"${key}" must be a non-empty string`);
  return v;
}

/** A JSON object (not null, not an array). */
export const isParams = (v: unknown): v is Params => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The catalog the request's session sees. */
export function catalogOf(ctx: RequestContext): Catalog {
  return ctx.gateway.catalogFor(ctx.session);
}
