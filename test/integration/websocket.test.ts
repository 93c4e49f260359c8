import type { Client as V2Client } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDirectEverything } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { defaultYaml, makeSandbox } from '../helpers/servers.js';
import { installGlobalWebSocket, openRawSocket, upgradeOutcome } from '../helpers/ws-client.js';

const MAX_BODY = 100_000;

let gw: TestGateway;
let direct: V2Client;

beforeAll(async () => {
  installGlobalWebSocket();
  gw = await startTestGateway(defaultYaml(makeSandbox(), `http:\n  maxBodyBytes: ${MAX_BODY}`));
  direct = await connectDirectEverything();
});

afterAll(async () => {
  await direct?.close();
  await gw?.stop();
});

describe('SDK v1 WebSocketClientTransport through sluice', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'ws-test', version: '1.0.0' });
    await client.connect(new WebSocketClientTransport(new URL(gw.wsUrl)));
  });
  afterAll(async () => client?.close());

  it('initializes over the socket', () => {
    expect(client.getServerVersion()?.name).toBe('sluice');
    expect(client.getServerCapabilities()?.resources).toBeDefined();
  });

  it('reads a binary blob with the same bytes as the server itself', async () => {
    const uri = 'demo://resource/dynamic/blob/3';
    const read = async (c: { readResource(p: { uri: string }): Promise<{ contents: unknown[] }> }) =>
      (await c.readResource({ uri })).contents[0] as { blob?: string; mimeType?: string };
    // The blob ends in a time of day (to the second): compare when two direct reads around ours agree.
    for (let attempt = 0; ; attempt++) {
      const before = await read(direct);
      const viaWs = await read(client);
      const after = await read(direct);
      if (before.blob !== after.blob && attempt < 5) continue;
      expect(typeof viaWs.blob).toBe('string');
      expect(Buffer.from(viaWs.blob!, 'base64').equals(Buffer.from(before.blob!, 'base64'))).toBe(true);
      expect(Buffer.from(viaWs.blob!, 'base64').toString()).toMatch(/^Resource 3: /);
      expect(viaWs.mimeType).toBe(before.mimeType);
      break;
    }
  });
});

describe('raw WebSocket frames', () => {
  it('answers a malformed JSON frame with -32700 and keeps the connection', async () => {
    const sock = await openRawSocket(gw.wsUrl);
    try {
      sock.send('{"jsonrpc":"2.0","id":1,"method":"ping"');
      const error = await sock.next();
      expect(error).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      expect(sock.ws.readyState).toBe(sock.ws.OPEN);
      const pong = await sock.request('ping');
      expect(pong.result).toEqual({});
    } finally {
      await sock.close();
    }
  });

  it('answers a frame over http.maxBodyBytes with an error naming the limit, and keeps the connection', async () => {
    const sock = await openRawSocket(gw.wsUrl);
    try {
      const init = await sock.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-ws', version: '1' } });
      expect(init.result.serverInfo.name).toBe('sluice');
      sock.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const big = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'x'.repeat(MAX_BODY + 50_000) } } });
      expect(big.length).toBeGreaterThan(MAX_BODY);
      sock.send(big);
      const error = await sock.next();
      expect(error.error).toBeDefined();
      expect(error.error.message).toContain(String(MAX_BODY));
      expect(sock.ws.readyState).toBe(sock.ws.OPEN);
      // Still the same, initialized session: a tool call right after works.
      const echo = await sock.request('tools/call', { name: 'everything__echo', arguments: { message: 'still open' } });
      expect(echo.result.content).toEqual([{ type: 'text', text: 'Echo: still open' }]);
    } finally {
      await sock.close();
    }
  });

  it('refuses a connection from a foreign Origin with 403', async () => {
    const outcome = await upgradeOutcome(gw.wsUrl, { headers: { Origin: 'http://evil.example' } });
    expect(outcome).toMatchObject({ opened: false, status: 403 });
    expect((outcome as { body: string }).body).toContain('evil.example');
    // A local origin is let in.
    const port = new URL(gw.wsUrl).port;
    expect(await upgradeOutcome(gw.wsUrl, { headers: { Origin: `http://localhost:${port}` } })).toEqual({ opened: true });
  });

  it('refuses a connection whose Host is not local (DNS rebinding) with 403', async () => {
    const port = new URL(gw.wsUrl).port;
    const outcome = await upgradeOutcome(gw.wsUrl, { headers: { Host: `evil.example:${port}` } });
    expect(outcome).toMatchObject({ opened: false, status: 403 });
    expect((outcome as { body: string }).body).toContain('Invalid Host');
  });
});
