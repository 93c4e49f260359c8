import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, errorMessage, type JsonRpcMessage, type RequestId } from '../protocol/jsonrpc.js';

/** How much of an oversized body is read and thrown away before the 413, so the client sees the answer. */
const DISCARD_CAP = 64 * 1024 * 1024;

/** A whole HTTP answer: status, JSON body (if any), headers. */
export interface Reply {
  status: number;
  body?: JsonRpcMessage | JsonRpcMessage[] | Record<string, unknown>;
  headers?: Record<string, string>;
}

export function jsonError(status: number, code: number, message: string, id: RequestId | null = null): Reply {
  return { status, body: errorMessage(id, { code, message }) };
}

export function reply(res: ServerResponse, r: Reply): void {
  if (res.headersSent) return void res.end();
  if (r.body === undefined) {
    res.writeHead(r.status, r.headers);
    return void res.end();
  }
  const text = JSON.stringify(r.body);
  res.writeHead(r.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...r.headers });
  res.end(text);
}

/**
 * The body of a POST that must be JSON: 415 for another content type, and 413 when it is over `max` bytes —
 * both answered here, with undefined returned. The 413 goes out once the client has finished sending (what is
 * over the limit is read and thrown away, up to DISCARD_CAP): closing the socket while a body still arrives
 * makes clients see EPIPE instead of the answer.
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<string | undefined> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    reply(res, jsonError(415, ErrorCode.TransportError, 'Unsupported Media Type: Content-Type must be application/json'));
    return Promise.resolve(undefined);
  }
  const tooLarge = () => reply(res, { ...jsonError(413, ErrorCode.InvalidRequest, `Invalid Request: body exceeds the limit of ${max} bytes`), headers: { connection: 'close' } });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers['content-length'] ?? 0) > max;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size > max) over = true;
      if (!over) return void chunks.push(chunk);
      chunks.length = 0;
      if (size > max + DISCARD_CAP) {
        // Past the cap the client is not merely oversized: answer now and stop reading.
        req.removeAllListeners('data');
        tooLarge();
        req.destroy();
        resolve(undefined);
      }
    });
    req.on('end', () => {
      if (!over) return resolve(Buffer.concat(chunks).toString('utf8'));
      tooLarge();
      resolve(undefined);
    });
    req.on('error', reject);
  });
}
