import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { FrontDoor } from '../gateway/front-door.js';
import type { Gateway } from '../gateway/gateway.js';
import { stdioPrincipal } from '../identity/principal.js';
import { ErrorCode, errorMessage, type JsonRpcMessage } from '../protocol/jsonrpc.js';

export const NO_STDIO_IDENTITY = 'serving stdio needs an identity: set auth.stdioAgent (or auth.required: false with auth.anonymousAgent)';

/**
 * MCP over the process's own stdin/stdout: newline-delimited JSON, one client. Nothing but protocol
 * messages may ever reach `output` (logs go to stderr). Resolves when the client closes stdin.
 */
export function serveStdio(gateway: Gateway, front: FrontDoor, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  const write = (m: JsonRpcMessage | JsonRpcMessage[]) => void output.write(JSON.stringify(m) + '\n');
  // The stdio client is the process that started us: it is whoever the config names for it.
  const principal = stdioPrincipal(gateway.config.security);
  if (!principal) return refuseEverything(input, write);
  const connection = front.connect('stdio', { send: (m) => write(m) }, principal);
  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    // Each line is handled on its own: a slow tool call must not hold up a ping or a cancellation behind it.
    void connection.receive(line).then((answer) => answer.body && write(answer.body));
  });
  return new Promise((resolve) => {
    lines.once('close', () => void connection.close().then(resolve));
  });
}

/** Without an identity for the stdio client, every request it sends is answered with why, until it hangs up. */
function refuseEverything(input: Readable, write: (m: JsonRpcMessage) => void): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch {
      id = null;
    }
    if (id === undefined) return; // a notification: nothing to answer
    write(errorMessage(typeof id === 'string' || typeof id === 'number' ? id : null, { code: ErrorCode.InvalidRequest, message: `sluice refused this stdio client: ${NO_STDIO_IDENTITY}` }));
  });
  return new Promise((resolve) => lines.once('close', () => resolve()));
}

