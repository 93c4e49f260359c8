import type { Client as V2Client } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDirectEverything } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { defaultYaml, makeSandbox } from '../helpers/servers.js';

// The legacy SDK (v1, @modelcontextprotocol/sdk) is what most MCP clients in the wild are still built on.

let gw: TestGateway;
let direct: V2Client;
let client: Client;

beforeAll(async () => {
  gw = await startTestGateway(defaultYaml(makeSandbox()));
  direct = await connectDirectEverything();
  client = new Client({ name: 'v1-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
});

afterAll(async () => {
  await client?.close();
  await direct?.close();
  await gw?.stop();
});

describe('SDK v1 client over Streamable HTTP through sluice', () => {
  it('connects and sees sluice as the server', () => {
    expect(client.getServerVersion()?.name).toBe('sluice');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists the tools of both servers under their namespaced names', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('files__read_text_file');
    const echo = tools.find((t) => t.name === 'everything__echo')!;
    expect(echo.inputSchema.properties).toHaveProperty('message');
  });

  it('calls echo and gets exactly the text back', async () => {
    const result = await client.callTool({ name: 'everything__echo', arguments: { message: 'v1 says héllo ✓' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: v1 says héllo ✓' }]);
    expect(result.isError).toBeFalsy();
  });

  it('reads a static resource with the same contents as the server itself', async () => {
    const { resources } = await client.listResources();
    const doc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'));
    expect(doc).toBeDefined();
    const read = await client.readResource({ uri: doc!.uri });
    const expected = await direct.readResource({ uri: doc!.uri });
    expect(read.contents).toEqual(expected.contents);
    expect((read.contents[0] as { text: string }).text.length).toBeGreaterThan(0);
  });

  it('gets a prompt with arguments', async () => {
    const prompt = await client.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'Paris' } });
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0].content).toEqual({ type: 'text', text: "What's weather in Paris?" });
  });

  it('reads a binary blob from a template byte for byte', async () => {
    const uri = 'demo://resource/dynamic/blob/1';
    const read = async (c: { readResource(p: { uri: string }): Promise<{ contents: unknown[] }> }) =>
      (await c.readResource({ uri })).contents[0] as { uri: string; blob?: string; mimeType?: string };
    // The blob text ends in the time of day it was made (to the second). Bracket the gateway read between two
    // direct reads; when those two agree, no second boundary passed and the gateway's bytes must equal them.
    for (let attempt = 0; ; attempt++) {
      const before = await read(direct);
      const viaGateway = await read(client);
      const after = await read(direct);
      if (before.blob !== after.blob && attempt < 5) continue;
      expect(viaGateway.uri).toBe(uri);
      expect(typeof viaGateway.blob).toBe('string');
      const bytes = Buffer.from(viaGateway.blob!, 'base64');
      expect(bytes.toString('utf8')).toMatch(/^Resource 1: This is a base64 blob created at /);
      expect(bytes.equals(Buffer.from(before.blob!, 'base64'))).toBe(true);
      expect(viaGateway.mimeType).toBe(before.mimeType);
      break;
    }
  });
});

