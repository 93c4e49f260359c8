import { dispatch, statelessSession } from '../gateway/dispatch.js';
import type { Gateway } from '../gateway/gateway.js';
import type { ClientSession } from '../gateway/session.js';
import { checkEnvelope, parseJson } from '../protocol/envelope.js';
import { ErrorCode, errorMessage, isResponse, RpcError, type JsonRpcMessage, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { claimedVersion } from '../protocol/modern.js';
import { allowsBatches, MAX_BATCH } from '../protocol/versions.js';

/**
 * Handles one frame of a connection-oriented transport (a stdio line, a WebSocket message): parse, check the
 * envelope, route a stateless-revision request to a throw-away session and everything else to the
 * connection's own session. Returns what to write back, if anything.
 */
export async function handleFrame(gateway: Gateway, session: ClientSession, text: string, maxBytes: number): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (Buffer.byteLength(text) > maxBytes) {
    return errorMessage(null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: message of ${Buffer.byteLength(text)} bytes exceeds the limit of ${maxBytes} bytes` });
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed.error;
  if (Array.isArray(parsed.value)) return handleBatch(gateway, session, parsed.value);
  return handleOne(gateway, session, parsed.value);
}

async function handleOne(gateway: Gateway, session: ClientSession, value: unknown): Promise<JsonRpcResponse | undefined> {
  const checked = checkEnvelope(value);
  if (!checked.ok) return checked.error;
  const message: JsonRpcMessage = checked.message;
  if (!isResponse(message) && claimedVersion(message) !== undefined) {
    const stateless = statelessSession(session.transport, session.channel, session.principal, message);
    if (!('id' in message)) return undefined;
    if (stateless instanceof RpcError) return errorMessage(message.id, stateless.toObject());
    return dispatch(gateway, stateless, message);
  }
  return dispatch(gateway, session, message);
}

async function handleBatch(gateway: Gateway, session: ClientSession, values: unknown[]): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (values.length === 0) return errorMessage(null, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: empty batch' });
  if (!allowsBatches(session.protocolVersion)) {
    return errorMessage(null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: batches are not allowed by protocol revision ${session.protocolVersion ?? '(not initialized)'}; only 2025-03-26 has them` });
  }
  if (values.length > MAX_BATCH) return errorMessage(null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: a batch may hold at most ${MAX_BATCH} messages, this one has ${values.length}` });
  const answers = await Promise.all(values.map((v) => handleOne(gateway, session, v)));
  const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);
  return responses.length > 0 ? responses : undefined;
}
