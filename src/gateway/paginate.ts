import { ErrorCode, RpcError, type Params } from '../protocol/jsonrpc.js';

/**
 * One page of a merged list. The cursor is opaque to clients (base64url of an offset); one we did not issue
 * is an invalid-params error, not a silent restart from the top.
 */
export function paginate(items: readonly Params[], field: string, cursor: string | undefined, pageSize: number): Params {
  let offset = 0;
  if (cursor !== undefined) {
    const decoded = /^[A-Za-z0-9_-]{1,32}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
    const match = /^o:(\d{1,9})$/.exec(decoded);
    if (!match) throw new RpcError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor.slice(0, 64)}`);
    offset = Number(match[1]);
  }
  if (offset === 0 && items.length <= pageSize) return { [field]: items };
  const page = items.slice(offset, offset + pageSize);
  const next = offset + pageSize < items.length ? Buffer.from(`o:${offset + pageSize}`).toString('base64url') : undefined;
  return next ? { [field]: page, nextCursor: next } : { [field]: page };
}
