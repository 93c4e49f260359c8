import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';

export interface StdioOptions {
  command: string;
  args: string[];
  /** The child's whole environment: nothing is added from ours (see stdioEnvironment). */
  env: Record<string, string>;
  cwd: string;
  /** Receives each line the server writes to stderr (servers log there). */
  onStderr?: (line: string) => void;
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
  private buffer = '';
  private closed = false;
  private lastStderr = '';
  closeReason?: string;

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
        if (!this.closed) reject(err);
        this.onerror?.(err);
        this.finish();
      });
      child.once('spawn', () => resolve());
      child.once('exit', (code, signal) => {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.closeReason = `server process ${how}${this.lastStderr ? ` (last stderr: ${this.lastStderr.slice(0, 300)})` : ''}`;
        this.finish();
      });
      child.stdin.on('error', (err) => this.onerror?.(err));
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => this.onData(chunk));
      let errBuffer = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        errBuffer += chunk;
        let nl: number;
        while ((nl = errBuffer.indexOf('\n')) >= 0) {
          const line = errBuffer.slice(0, nl).trimEnd();
          errBuffer = errBuffer.slice(nl + 1);
          if (line) {
            this.lastStderr = line;
            this.options.onStderr?.(line);
          }
        }
      });
    });
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (!line) continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.onerror?.(new Error(`server wrote a line that is not JSON: ${line.slice(0, 200)}`));
        continue;
      }
      // Shape-checked only: whoever reads the message (our peer, or the SDK Client) validates what it needs.
      if (message !== null && typeof message === 'object' && !Array.isArray(message)) this.onmessage?.(message as JSONRPCMessage);
      else this.onerror?.(new Error(`server wrote JSON that is not a JSON-RPC message: ${line.slice(0, 200)}`));
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return Promise.reject(new Error('server process is not running'));
    child.stdin.write(JSON.stringify(message) + '\n');
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
