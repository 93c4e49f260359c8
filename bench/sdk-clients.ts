import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { echoText, type EchoClient } from './echo-client.js';
import { EVERYTHING, ROOT } from './paths.js';
import { adoptPid } from './processes.js';

const CLIENT_INFO = { name: 'sluice-bench-sdk', version: '1.0.0' };

/**
 * The official SDK v2 client as an application would use it: default (legacy) negotiation, one Client and
 * one transport per session, `callTool` per call. Its own per-call cost is part of what users experience.
 */
export class SdkHttpClient implements EchoClient {
  private constructor(
    private readonly client: Client,
    private readonly transport: StreamableHTTPClientTransport,
    private readonly tool: string,
  ) {}

  static async open(url: string, tool: string, headers: Record<string, string> = {}): Promise<SdkHttpClient> {
    const client = new Client(CLIENT_INFO);
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
    await client.connect(transport);
    return new SdkHttpClient(client, transport, tool);
  }

  async echo(message: string): Promise<string> {
    return echoText(await this.client.callTool({ name: this.tool, arguments: { message } }));
  }

  async close(): Promise<void> {
    // DELETE the session so supergateway stops this session's server process now, not after 30 idle minutes.
    await this.transport.terminateSession().catch(() => undefined);
    await this.client.close();
  }
}

/** The SDK client straight to server-everything over stdio: no gateway at all. */
export class SdkStdioClient implements EchoClient {
  private constructor(
    private readonly client: Client,
    /** server-everything's process id, for CPU accounting. */
    readonly pid: number,
    private readonly release: () => void,
  ) {}

  static async open(): Promise<SdkStdioClient> {
    const client = new Client(CLIENT_INFO);
    const transport = new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], cwd: ROOT, stderr: 'ignore' });
    await client.connect(transport);
    return new SdkStdioClient(client, transport.pid ?? 0, adoptPid(transport.pid));
  }

  async echo(message: string): Promise<string> {
    return echoText(await this.client.callTool({ name: 'echo', arguments: { message } }));
  }

  async close(): Promise<void> {
    await this.client.close();
    this.release();
  }
}
