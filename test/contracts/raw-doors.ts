import { once } from 'node:events';
import WebSocket from 'ws';
import { META } from '../../src/protocol/modern.js';
import { MODERN_VERSION } from '../../src/protocol/versions.js';
import { postRaw } from '../helpers/clients.js';
import { spawnSluiceStdio } from '../helpers/sluice-cli.js';

/**
 * Clients of each front door that send text exactly as given, for what SDK clients never send: batches,
 * oversized messages. Each speaks one revision; in a revision with sessions it opens one first (initialize).
 */
export interface RawClient {
  /** A request in the client's revision (a 2026-07-28 one carries its `_meta` envelope), to send alone or in a batch. */
  request(id: number, method: string, params?: Record<string, unknown>): Record<string, unknown>;
  /** Sends `text` as one message the door's way (a line, a frame, a POST body); resolves with the reply to it, parsed. */
  send(text: string): Promise<unknown>;
  close(): Promise<void>;
}

const REPLY_WAIT_MS = 20_000;
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

function requestIn(revision: string): RawClient['request'] {
  if (revision !== MODERN_VERSION) return (id, method, params = {}) => ({ jsonrpc: '2.0', id, method, params });
  const _meta = { [META.protocolVersion]: revision, [META.clientCapabilities]: {}, [META.clientInfo]: { name: 'raw', version: '1' } };
  return (id, method, params = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta } });
}

function initializeIn(revision: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
}

function checkInitialized(reply: unknown, revision: string): void {
  const negotiated = (reply as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
  if (negotiated !== revision) throw new Error(`initialize in ${revision} failed: ${JSON.stringify(reply)}`);
}

/** On a connection, replies come in the order of the messages they answer: each goes to the oldest send still waiting. */
class Replies {
  private readonly waiting: ((message: unknown) => void)[] = [];

  /** A reply is a response or a batch's array; what the server sends unprompted (notifications, requests) is not. */
  arrived(message: unknown): void {
    if (Array.isArray(message) || (typeof message === 'object' && message !== null && !('method' in message))) this.waiting.shift()?.(message);
  }

  next(sent: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply within ${REPLY_WAIT_MS} ms to ${sent.slice(0, 100)}`)), REPLY_WAIT_MS);
      this.waiting.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }
}

/** A raw client over a connection (stdio, WebSocket), one send at a time; `write` puts one message on the wire. */
async function overConnection(revision: string, write: (text: string) => void, replies: Replies, close: () => Promise<void>): Promise<RawClient> {
  const send = (text: string) => {
    const reply = replies.next(text);
    write(text);
    return reply;
  };
  if (revision !== MODERN_VERSION) {
    checkInitialized(await send(initializeIn(revision)), revision);
    write(INITIALIZED);
  }
  return { request: requestIn(revision), send, close };
}

/** One more `sluice serve --stdio` on the config in `configFile` (give it a data folder of its own), driven line by line. */
export function rawStdio(configFile: string, revision: string): Promise<RawClient> {
  const child = spawnSluiceStdio(configFile);
  child.stderr.resume();
  const replies = new Replies();
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      replies.arrived(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  const close = async () => {
    const exited = once(child, 'exit');
    child.stdin.end();
    await exited;
  };
  return overConnection(revision, (text) => void child.stdin.write(`${text}\n`), replies, close);
}

/** A WebSocket of its own to `url` (subprotocol `mcp`), one message per text frame. */
export async function rawWebSocket(url: string, revision: string): Promise<RawClient> {
  const ws = new WebSocket(url, 'mcp');
  await once(ws, 'open');
  const replies = new Replies();
  // Text frames arrive as one Buffer each.
  ws.on('message', (data) => replies.arrived(JSON.parse((data as Buffer).toString('utf8'))));
  const close = async () => {
    if (ws.readyState === ws.CLOSED) return;
    const closed = once(ws, 'close');
    ws.close();
    await closed;
  };
  return overConnection(revision, (text) => ws.send(text), replies, close);
}

/** Streamable HTTP at `url`: a POST per message; in a revision with sessions, of one opened first and ended on close. */
export async function rawHttp(url: string, revision: string): Promise<RawClient> {
  const request = requestIn(revision);
  if (revision === MODERN_VERSION) return { request, send: async (text) => replyOf(await postRaw(url, text)), close: async () => undefined };
  const init = await postRaw(url, initializeIn(revision));
  checkInitialized(replyOf(init), revision);
  const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': revision };
  await postRaw(url, INITIALIZED, headers);
  return {
    request,
    send: async (text) => replyOf(await postRaw(url, text, headers)),
    close: async () => void (await fetch(url, { method: 'DELETE', headers })),
  };
}

/** The JSON-RPC a POST was answered with, whatever its status: the body, or the last event when it streamed. */
function replyOf(res: { headers: Headers; text: string }): unknown {
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return res.text === '' ? undefined : JSON.parse(res.text);
  const data = res.text.split('\n').filter((line) => line.startsWith('data: '));
  return data.length === 0 ? undefined : JSON.parse(data[data.length - 1].slice('data: '.length));
}
