/**
 * The connection doors of the front-door fuzz tests (test/integration/fuzz*.test.ts), WebSocket and stdio: frames in,
 * frames out, matched by id; a ping after each message marks the point by which any (wrong) answer to a
 * notification would have arrived.
 */
import { once } from 'node:events';
import WebSocket from 'ws';
import { expect } from 'vitest';
import { count, dataDir, fuzzYaml, PER_MESSAGE_MS, withTimeout, type Door } from './fuzz-gateway.js';
import { isObject, materialize } from './fuzz-messages.js';
import { expectFrame, idKey, responseProblem, show, type FrameContext } from './fuzz-oracle.js';
import { spawnSluiceStdio, writeConfig } from './sluice-cli.js';

/** Everything a connection sent back, checked as it arrives. */
class Inbox {
  readonly replies: { message: Record<string, unknown>; inArray: boolean }[] = [];
  readonly problems: string[] = [];
  private waiters = new Set<() => void>();

  constructor(private readonly answerServer: (m: Record<string, unknown>) => void) {}

  take(raw: string): void {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      this.problems.push(`a frame that is not JSON: ${show(raw)}`);
      return this.wake();
    }
    const list = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && value.length === 0) this.problems.push('an empty array frame');
    for (const m of list) {
      if (isObject(m) && Object.hasOwn(m, 'method')) {
        // The gateway's own notifications and requests (progress, logs, pings): JSON-RPC, and never ours to check.
        if (m.jsonrpc !== '2.0') this.problems.push(`a server message without "jsonrpc": "2.0": ${show(raw)}`);
        if (Object.hasOwn(m, 'id')) this.answerServer(m);
        continue;
      }
      const p = responseProblem(m);
      if (p) this.problems.push(`a frame that is not a JSON-RPC response (${p}): ${show(raw)}`);
      else this.replies.push({ message: m as Record<string, unknown>, inArray: Array.isArray(value) });
    }
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters) w();
  }

  /** Resolves true once `done()` holds, false after `ms`. */
  until(done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        clear();
        resolve(true);
      };
      const timer = setTimeout(() => (clear(), resolve(false)), ms);
      const clear = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }
}

export interface Wire {
  /** Sends one frame; `binary` only means something on a WebSocket. */
  write(bytes: Buffer, binary?: boolean): void;
  inbox: Inbox;
  up(): boolean;
  what: string;
}

/** A door over one connection; `ctx` says how it treats batches and blank frames. */
export function connectionDoor(wire: Wire, ctx: FrameContext, prepare: (b: Buffer) => Buffer = (b) => b): Door {
  const { inbox } = wire;
  let n = 1;
  let sentinel = 0;
  const seen = new Set<string>();
  const request = async (method: string, params: unknown): Promise<Record<string, unknown> | undefined> => {
    const id = `probe-${++sentinel}`;
    const start = inbox.replies.length;
    wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params })));
    const find = () => inbox.replies.slice(start).find((r) => r.message.id === id)?.message;
    await inbox.until(() => find() !== undefined, PER_MESSAGE_MS);
    return find();
  };
  return {
    async send({ draft }) {
      const bytes = prepare(materialize(draft, () => n++));
      const expected = expectFrame(bytes, ctx);
      const start = inbox.replies.length;
      const problemsBefore = inbox.problems.length;
      const mark = `sentinel-${++sentinel}`;
      // Raw bytes go as a binary frame (decoded as UTF-8 like text), everything else as text.
      wire.write(bytes, draft.kind === 'bytes');
      wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: mark, method: 'ping' })));
      const fresh = () => inbox.replies.slice(start);
      const complete = () => {
        const got = new Set(fresh().map((r) => idKey(r.message.id)));
        return got.has(idKey(mark)) && expected.ids.every((id) => got.has(idKey(id))) && fresh().filter((r) => r.message.id === null).length >= expected.nulls;
      };
      const inTime = await inbox.until(complete, PER_MESSAGE_MS);
      const problems = inbox.problems.slice(problemsBefore);
      if (!wire.up()) problems.push(`${wire.what} went down`);
      const want = new Map(expected.ids.map((id) => [idKey(id), id]));
      let nulls = 0;
      for (const { message, inArray } of fresh()) {
        const key = idKey(message.id);
        if (key === idKey(mark)) continue;
        count([message]);
        if (message.id === null) {
          nulls++;
          if (expected.batch && !inArray) problems.push(`a reply to a batch entry outside the batch's array: ${show(JSON.stringify(message))}`);
        } else if (want.has(key)) {
          want.delete(key);
          seen.add(key);
          if (expected.batch !== inArray) problems.push(`reply ${show(JSON.stringify(message))} ${inArray ? 'in' : 'not in'} an array`);
        } else {
          problems.push(`${seen.has(key) ? 'a second' : 'an unexpected'} reply ${show(JSON.stringify(message))}`);
        }
      }
      if (!inTime || want.size > 0) problems.push(`no reply within ${PER_MESSAGE_MS} ms for id(s) ${show(JSON.stringify([...want.values()]))} (or the ping after it)`);
      if (nulls < expected.nulls || nulls > expected.nulls + expected.maybeNulls) problems.push(`${nulls} replies with id null, wanted ${expected.nulls}${expected.maybeNulls ? `..${expected.nulls + expected.maybeNulls}` : ''}`);
      return problems.map((p) => `${p}\n    sent: ${show(bytes)}`);
    },
    async alive(label) {
      expect(wire.up(), `${wire.what} is up at ${label}`).toBe(true);
      const answer = await request('tools/call', { name: 'everything__echo', arguments: { message: label } });
      expect((answer?.result as { content?: unknown } | undefined)?.content, `echo over ${wire.what} at ${label}: ${JSON.stringify(answer)}`).toEqual([{ type: 'text', text: `Echo: ${label}` }]);
    },
  };
}

/** Answers the gateway's own requests (roots, pings) so that nothing waits on the fuzzing client. */
const refuseServerRequest = (write: (b: Buffer) => void) => (m: Record<string, unknown>) =>
  write(Buffer.from(JSON.stringify(m.method === 'ping' ? { jsonrpc: '2.0', id: m.id, result: {} } : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'fuzz client' } })));

/** Sends initialize on a fresh connection and waits for its answer. */
export async function initializeOver(wire: Wire, version: string, ms: number): Promise<void> {
  wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } })));
  const ok = await wire.inbox.until(() => wire.inbox.replies.some((r) => r.message.id === 'init'), ms);
  if (!ok) throw new Error(`no initialize answer over ${wire.what}: ${wire.inbox.problems.join('; ')}`);
  const init = wire.inbox.replies.find((r) => r.message.id === 'init')!.message;
  expect((init.result as { protocolVersion?: string }).protocolVersion).toBe(version);
  wire.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })));
}

export async function openWebSocket(url: string): Promise<Wire & { ws: WebSocket }> {
  const ws = new WebSocket(url, 'mcp');
  const write = (bytes: Buffer, binary = false) => ws.send(bytes, { binary });
  const inbox = new Inbox(refuseServerRequest(write));
  ws.on('message', (data, isBinary) => (isBinary ? inbox.problems.push('a binary frame') : inbox.take(data.toString())));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, inbox, what: 'the WebSocket', up: () => ws.readyState === WebSocket.OPEN, write };
}

/**
 * `sluice serve --stdio --no-http` with the same config as the in-process gateway, one JSON message a line;
 * `stop` ends its input and waits for it to exit (killing it after 10 s).
 */
export async function spawnStdio(): Promise<Wire & { stderr(): string; stop(): Promise<void> }> {
  const dir = dataDir();
  const proc = spawnSluiceStdio(writeConfig(dir, fuzzYaml(dir)));
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const write = (bytes: Buffer) => void proc.stdin.write(Buffer.concat([bytes, Buffer.from('\n')]));
  const inbox = new Inbox(refuseServerRequest(write));
  let pending = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) inbox.take(line);
  });
  const stop = async () => {
    if (proc.exitCode !== null) return;
    const exited = once(proc, 'exit');
    proc.stdin.end();
    await withTimeout(exited, 10_000, 'sluice exiting').catch(() => proc.kill('SIGKILL'));
  };
  return { write, inbox, what: 'the stdio gateway', up: () => proc.exitCode === null && !proc.stdin.destroyed, stderr: () => stderr, stop };
}
