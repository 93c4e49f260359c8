import { Agent, request, type IncomingMessage } from 'node:http';
import { echoText, type EchoClient, type Id } from './echo-client.js';

const PROTOCOL_VERSION = '2025-11-25';

interface Reply {
  status: number;
  sessionId?: string;
  /** The JSON-RPC response to our request, when the request had an id. */
  message?: { id?: Id; result?: unknown; error?: { code: number; message: string } };
}

/**
 * The smallest correct Streamable HTTP client: node:http over a keep-alive agent, no MCP library, no
 * validation beyond finding our response. It costs so little that what it measures is the server's time.
 */
export class LeanHttpSession implements EchoClient {
  private nextId = 1;
  private sessionId?: string;
  private readonly target: { host: string; port: number; path: string };

  private constructor(
    url: string,
    private readonly tool: string,
    private readonly agent: Agent,
    private readonly extraHeaders: Record<string, string>,
  ) {
    // Parsed once: per-request URL parsing would be client cost, not gateway cost.
    const u = new URL(url);
    this.target = { host: u.hostname, port: Number(u.port), path: u.pathname };
  }

  /** A keep-alive agent to share among the sessions of one pool; each session still has its own id. */
  static agent(maxSockets: number): Agent {
    return new Agent({ keepAlive: true, maxSockets, scheduling: 'lifo' });
  }

  /** Opens a legacy session: initialize (capturing Mcp-Session-Id), then notifications/initialized. */
  static async open(url: string, tool: string, agent: Agent, headers: Record<string, string> = {}): Promise<LeanHttpSession> {
    const s = new LeanHttpSession(url, tool, agent, headers);
    const init = await s.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'sluice-bench-lean', version: '1.0.0' } } });
    if (init.status !== 200 || !init.sessionId || init.message?.result === undefined) {
      throw new Error(`initialize at ${url} failed: HTTP ${init.status}, ${JSON.stringify(init.message)}`);
    }
    s.sessionId = init.sessionId;
    const ack = await s.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (ack.status >= 300) throw new Error(`notifications/initialized at ${url} failed: HTTP ${ack.status}`);
    return s;
  }

  async echo(message: string): Promise<string> {
    const reply = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params: { name: this.tool, arguments: { message } } });
    if (reply.message?.error) throw new Error(`tools/call failed: ${reply.message.error.code} ${reply.message.error.message}`);
    if (reply.status !== 200) throw new Error(`tools/call failed: HTTP ${reply.status}`);
    return echoText(reply.message?.result);
  }

  async close(): Promise<void> {
    if (!this.sessionId) return;
    await new Promise<void>((resolve) => {
      const req = request({ ...this.target, method: 'DELETE', agent: this.agent, headers: this.headers() }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve()); // the server may already be gone; nothing to clean up then
      req.end();
    });
    this.sessionId = undefined;
  }

  private headers(extra: Record<string, string | number> = {}): Record<string, string | number> {
    const h: Record<string, string | number> = { accept: 'application/json, text/event-stream', ...this.extraHeaders, ...extra };
    if (this.sessionId) {
      h['mcp-session-id'] = this.sessionId;
      h['mcp-protocol-version'] = PROTOCOL_VERSION;
    }
    return h;
  }

  private post(message: { id?: Id } & Record<string, unknown>): Promise<Reply> {
    const body = JSON.stringify(message);
    const headers = this.headers({ 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    return new Promise<Reply>((resolve, reject) => {
      const req = request({ ...this.target, method: 'POST', agent: this.agent, headers }, (res) => {
        const status = res.statusCode ?? 0;
        const sessionId = res.headers['mcp-session-id'] as string | undefined;
        readReply(res, message.id).then((m) => resolve({ status, sessionId, message: m }), reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}

/**
 * Reads the answer to request `id` from a JSON body or from an SSE stream (mcp-proxy and supergateway answer
 * every POST with SSE). With SSE it resolves as soon as our response event arrives, as the SDK client does,
 * and keeps draining in the background so the socket goes back to the pool when the server ends the stream.
 */
function readReply(res: IncomingMessage, id: Id | undefined): Promise<Reply['message']> {
  const sse = /text\/event-stream/i.test(res.headers['content-type'] ?? '');
  res.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let text = '';
    let done = false;
    const finish = (m: Reply['message']) => {
      if (!done) {
        done = true;
        resolve(m);
      }
    };
    res.on('data', (chunk: string) => {
      if (done) return;
      text += chunk;
      if (!sse) return;
      let end: number;
      while ((end = text.search(/\r?\n\r?\n/)) >= 0) {
        const event = text.slice(0, end);
        text = text.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        if (!data) continue; // priming events and comments carry no message
        let parsed: NonNullable<Reply['message']>;
        try {
          parsed = JSON.parse(data) as NonNullable<Reply['message']>;
        } catch (err) {
          done = true;
          return reject(new Error(`SSE event is not JSON: ${data.slice(0, 200)}`, { cause: err }));
        }
        if (id !== undefined && parsed.id === id) return finish(parsed);
      }
    });
    res.on('end', () => {
      if (done) return;
      if (sse || !text) return finish(undefined);
      try {
        finish(JSON.parse(text) as Reply['message']);
      } catch (err) {
        reject(new Error(`HTTP ${res.statusCode}: body is not JSON: ${text.slice(0, 200)}`, { cause: err }));
      }
    });
    res.on('error', reject);
  });
}
