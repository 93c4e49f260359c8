import { echoText, type EchoClient, type Id } from './echo-client.js';
import { EVERYTHING, ROOT } from './paths.js';
import { startProcess, type Child } from './processes.js';

interface Waiter {
  resolve(result: unknown): void;
  reject(err: Error): void;
}

/**
 * server-everything driven over its stdin/stdout with raw JSON lines: the floor of stdio itself, with no
 * client library in the way. One process, one connection; concurrent callers share it, as a stdio server
 * only ever has one client.
 */
export class LeanStdioClient implements EchoClient {
  private nextId = 1;
  private buffer = '';
  private readonly waiting = new Map<Id, Waiter>();

  private constructor(private readonly child: Child) {
    const stdout = child.proc.stdout;
    if (!stdout) throw new Error('server-everything has no stdout pipe');
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => this.onData(chunk));
    child.proc.once('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`server-everything exited (${code}):\n${child.output()}`));
      this.waiting.clear();
    });
  }

  get pid(): number {
    return this.child.proc.pid ?? 0;
  }

  static async open(): Promise<LeanStdioClient> {
    const child = startProcess('server-everything (lean stdio)', process.execPath, [EVERYTHING, 'stdio'], { cwd: ROOT, keepStdout: true });
    const client = new LeanStdioClient(child);
    await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sluice-bench-lean', version: '1.0.0' } });
    client.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return client;
  }

  async echo(message: string): Promise<string> {
    return echoText(await this.request('tools/call', { name: 'echo', arguments: { message } }));
  }

  close(): Promise<void> {
    return this.child.stop();
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  private write(message: unknown): void {
    this.child.proc.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let message: { id?: Id; result?: unknown; error?: { code: number; message: string } };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        continue; // not a message (a stray log line); a client skips it, as the SDK does
      }
      // Responses only: the server's own notifications (tools/list_changed after init) are not ours to answer.
      if (message.id === undefined || !('result' in message || 'error' in message)) continue;
      const waiter = this.waiting.get(message.id);
      if (!waiter) continue;
      this.waiting.delete(message.id);
      if (message.error) waiter.reject(new Error(`${message.error.code} ${message.error.message}`));
      else waiter.resolve(message.result);
    }
  }
}
