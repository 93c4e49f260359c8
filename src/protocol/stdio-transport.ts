import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';
import { deliverText } from './deliver-text.js';
import { MalformedMessageError } from './upstream-message.js';

/** Longest line we read from a server's stdout; a longer one is discarded as it arrives, never buffered whole. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Longest stderr line we keep; the rest of a longer one is dropped. */
const MAX_STDERR_LINE_BYTES = 64 * 1024;

export interface StdioOptions {
  command: string;
  args: string[];
  /** The child's whole environment: nothing is added from ours (see stdioEnvironment). */
  env: Record<string, string>;
  cwd: string;
  /** Receives each line the server writes to stderr (servers log there). */
  onStderr?: (line: string) => void;
  /** Longest stdout line read (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
}

/**
 * A child process speaking newline-delimited JSON-RPC. Our own rather than the SDK's StdioClientTransport
 * because this is the hot path of every proxied call: the SDK re-validates every incoming message with zod,
 * which costs more than the rest of the hop; we parse once and pass the data through untouched.
 */
export class StdioTransport implements Transport {
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private child?: ChildProcessWithoutNullStreams;
  private closed = false;
  private lastStderr = '';
  closeReason?: string;
  closeKind?: 'exited' | 'failed to start';

  constructor(private readonly options: StdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        cwd: this.options.cwd,
        env: this.options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (err) => {
        this.closeReason = `cannot start ${this.options.command}: ${err.message}`;
        this.closeKind = 'failed to start';
        if (!this.closed) reject(err);
        this.onerror?.(err);
        this.finish();
      });
      child.once('spawn', () => resolve());
      child.once('exit', (code, signal) => {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.closeReason = `server process ${how}${this.lastStderr ? ` (last stderr: ${this.lastStderr.slice(0, 300)})` : ''}`;
        this.closeKind ??= 'exited';
        this.finish();
      });
      child.stdin.on('error', (err) => this.onerror?.(err));
      // Split as bytes and decoded a line at a time: a character split across chunks decodes whole, and bytes
      // that are not UTF-8 become U+FFFD rather than anything worse.
      const stdout = new LineSplitter(this.options.maxLineBytes ?? MAX_LINE_BYTES, (line) => this.onLine(line), (max, head, tail) => {
        this.onerror?.(new MalformedMessageError(`server wrote a line longer than ${max} bytes; discarded`, answerId(head, tail)));
      });
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      const stderr = new LineSplitter(
        MAX_STDERR_LINE_BYTES,
        (bytes) => this.onStderrLine(bytes.toString('utf8').trimEnd()),
        (max) => this.onStderrLine(`(a line longer than ${max} bytes, dropped)`),
      );
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    });
  }

  private onStderrLine(line: string): void {
    if (!line) return;
    this.lastStderr = line;
    this.options.onStderr?.(line);
  }

  private onLine(bytes: Buffer): void {
    const line = bytes.toString('utf8').trim();
    if (!line) return;
    deliverText(line, 'line', this);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return Promise.reject(new Error('server process is not running'));
    const stdin = child.stdin;
    // Messages sent in one turn of the event loop (calls of several clients) go to the server in one write:
    // a write to a pipe wakes the server, and each costs a system call.
    if (stdin.writableCorked === 0) {
      stdin.cork();
      setImmediate(() => stdin.uncork());
    }
    stdin.write(JSON.stringify(message) + '\n');
    return Promise.resolve();
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return;
    child.stdin.end();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 2000);
    const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    clearTimeout(hard);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * The id of the answer a discarded line was, from its first and last bytes: `{"jsonrpc":"2.0","id":7,…` or
 * `…,"id":7}` at the top level (servers write it first or last), so that the call it answers fails at once
 * rather than timing out. A guess a server could fool, but only about its own answers.
 */
function answerId(head: Buffer, tail: Buffer): number | undefined {
  const first = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(\d{1,15})\s*,/.exec(head.toString('latin1'));
  const last = /,\s*"id"\s*:\s*(\d{1,15})\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/.exec(tail.toString('latin1'));
  const id = first?.[1] ?? last?.[1];
  return id === undefined ? undefined : Number(id);
}

/** How many bytes of a discarded line's start and end are kept, to tell whose answer it was. */
const EDGE_BYTES = 128;

/**
 * Splits a byte stream at newlines into lines of at most `max` bytes. A longer line is dropped as it arrives
 * and reported when it ends (with its first and last bytes), so a server that never ends a line costs at most
 * `max` bytes, and finding each newline looks at every byte once however many chunks a line spans.
 */
class LineSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  /** While a line too long is being dropped: its first bytes, and the last ones so far. */
  private dropping?: { head: Buffer; tail: Buffer };

  constructor(
    private readonly max: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOverflow?: (max: number, head: Buffer, tail: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl);
      if (this.dropping) {
        this.dropping.tail = Buffer.concat([this.dropping.tail, piece.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES);
      } else if (this.length + piece.length > this.max) {
        const head = Buffer.concat([...this.parts, piece], Math.min(EDGE_BYTES, this.length + piece.length));
        this.dropping = { head, tail: Buffer.from(piece.subarray(-EDGE_BYTES)) };
        this.parts = [];
        this.length = 0;
      } else if (piece.length > 0) {
        this.parts.push(piece);
        this.length += piece.length;
      }
      if (nl < 0) return;
      start = nl + 1;
      const { parts, length, dropping } = this;
      this.parts = [];
      this.length = 0;
      this.dropping = undefined;
      if (dropping) this.onOverflow?.(this.max, dropping.head, dropping.tail);
      else if (length > 0) this.onLine(parts.length === 1 ? parts[0] : Buffer.concat(parts, length));
    }
  }
}
