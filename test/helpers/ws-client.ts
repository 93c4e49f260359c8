import WebSocket from 'ws';

/**
 * The v1 SDK's WebSocketClientTransport uses the global `WebSocket`, which Node 20 does not have; the `ws`
 * package's class speaks the same onopen/onmessage/onerror/onclose interface.
 */
export function installGlobalWebSocket(): void {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
}

export interface RawSocket {
  ws: WebSocket;
  /** Sends one text frame, exactly as given. */
  send(text: string): void;
  /** The next frame the server sends, parsed as JSON (fails after `timeoutMs`). */
  next(timeoutMs?: number): Promise<any>;
  /** Sends a JSON-RPC request and waits for the response with the same id (other frames are kept for next()). */
  request(method: string, params?: unknown): Promise<any>;
  close(): Promise<void>;
}

/** A raw WebSocket client for what SDK clients never send: malformed frames, oversized frames. */
export async function openRawSocket(url: string, options: WebSocket.ClientOptions = {}): Promise<RawSocket> {
  const ws = new WebSocket(url, 'mcp', options);
  const inbox: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`unexpected response ${res.statusCode}`)));
  });
  let nextId = 1;
  const next = (timeoutMs = 10_000) =>
    new Promise<any>((resolve, reject) => {
      if (inbox.length > 0) return resolve(inbox.shift());
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = (m: unknown) => {
        clearTimeout(timer);
        resolve(m);
      };
      waiters.push(waiter);
    });
  return {
    ws,
    send: (text) => ws.send(text),
    next,
    async request(method, params) {
      const id = `raw-${nextId++}`;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
      const skipped: unknown[] = [];
      for (;;) {
        const m = await next();
        if (m && typeof m === 'object' && (m as { id?: unknown }).id === id) {
          inbox.unshift(...skipped);
          return m;
        }
        skipped.push(m);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}

/** Tries to open a socket and reports how the server answered the upgrade: 'open', or the HTTP status it refused with. */
export function upgradeOutcome(url: string, options: WebSocket.ClientOptions = {}, protocol: string | undefined = 'mcp'): Promise<{ opened: true } | { opened: false; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = protocol === undefined ? new WebSocket(url, options) : new WebSocket(url, protocol, options);
    ws.once('open', () => {
      ws.close();
      resolve({ opened: true });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ opened: false, status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ opened: false, status: res.statusCode ?? 0, body }));
    });
    ws.once('error', (err) => reject(err));
  });
}

/** The HTTP status a WebSocket upgrade got: 101 when it opened. */
export async function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const outcome = await upgradeOutcome(url, { headers }).catch(() => ({ opened: false as const, status: 0, body: '' }));
  return outcome.opened ? 101 : outcome.status;
}
