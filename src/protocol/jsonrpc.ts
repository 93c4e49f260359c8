/**
 * JSON-RPC 2.0 message shapes as sluice handles them: plain data, parsed once with JSON.parse and never
 * re-validated on the hot path. Params and results stay `Record<string, unknown>` so that whatever an upstream
 * or a client sends (annotations, icons, `_meta`, fields from revisions newer than ours) passes through intact.
 */

export type RequestId = string | number;
export type Params = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Params;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

export interface JsonRpcResult {
  jsonrpc: '2.0';
  id: RequestId;
  result: Params;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcError {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResult | JsonRpcError;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined server error: what the HTTP front answers with a 4xx status (bad headers, 401, 403, 405…). */
  TransportError: -32000,
  /** A legacy session id that is unknown or not the presenter's (with HTTP 404), as the MCP SDK's servers send it. */
  SessionNotFound: -32001,
  /** MCP: a resource URI no server owns. */
  ResourceNotFound: -32002,
  /** sluice refused a resource read or prompt get (tools get an isError result instead). */
  Forbidden: -32003,
  /** sluice: the upstream that owns the target is not reachable right now. */
  UpstreamUnavailable: -32004,
  /** sluice: the upstream did not answer in time. */
  UpstreamTimeout: -32005,
  /** The request was cancelled (the number LSP uses for the same thing). */
  RequestCancelled: -32800,
} as const;

/** A wire error: carries a JSON-RPC code and is sent to the client as is. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toObject(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * An error answer an upstream sent: its message and data are the upstream's words — content like a result, which
 * the pipeline filters before a client sees it — not sluice's own.
 */
export class PeerError extends RpcError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = 'PeerError';
  }
}

export const isRequest = (m: JsonRpcMessage): m is JsonRpcRequest => 'method' in m && 'id' in m && m.id !== undefined;
export const isNotification = (m: JsonRpcMessage): m is JsonRpcNotification => 'method' in m && !('id' in m && m.id !== undefined);
export const isResponse = (m: JsonRpcMessage): m is JsonRpcResponse => !('method' in m) && ('result' in m || 'error' in m);

export function resultMessage(id: RequestId, result: Params): JsonRpcResult {
  return { jsonrpc: '2.0', id, result };
}

export function errorMessage(id: RequestId | null, error: JsonRpcErrorObject): JsonRpcError {
  return { jsonrpc: '2.0', id, error };
}

export function notification(method: string, params?: Params): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}
