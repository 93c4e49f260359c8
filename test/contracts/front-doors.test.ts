import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { WebSocketClientTransport } from '../../src/protocol/ws-client-transport.js';
import { startTestGateway } from '../helpers/gateway.js';
import { ROOT } from '../helpers/servers.js';
import { SLUICE_NODE_ARGS, writeConfig } from '../helpers/sluice-cli.js';
import { frontDoorContract, type ConnectDoor, type DoorConnection } from './front-doors.js';
import { rawHttp, rawStdio, rawWebSocket } from './raw-doors.js';

/** A session's way to watch a resource: resources/subscribe, and unsubscribe to stop. */
function subscribeWatch(client: Client, ready: () => Promise<void> = async () => undefined): DoorConnection['watchResource'] {
  return async (uri) => {
    await ready();
    await client.subscribeResource({ uri });
    return async () => void (await client.unsubscribeResource({ uri }));
  };
}

/** `sluice serve --stdio --no-http` as a child process, driven by the SDK's stdio client transport. */
const stdio: ConnectDoor = async (yaml) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'sluice-contract-'));
  const config = writeConfig(folder, yaml);
  // A raw client is one more stdio gateway, with a data folder of its own.
  const rawConfig = writeConfig(folder, yaml.replace(/^dataDir: .*$/m, `dataDir: ${JSON.stringify(mkdtempSync(path.join(tmpdir(), 'sluice-contract-data-')))}`), 'raw.yaml');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...SLUICE_NODE_ARGS, 'serve', '--stdio', '--no-http', '--config', config],
    cwd: ROOT,
    stderr: 'pipe',
  });
  // Logs arrive on stderr; drain them so a full pipe never stalls the gateway.
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'contract-stdio', version: '1.0.0' });
  await client.connect(transport);
  return { client, protocolVersion: '2025-11-25', watchResource: subscribeWatch(client), raw: (revision) => rawStdio(rawConfig, revision), close: () => client.close() };
};

/** Streamable HTTP with initialize and an Mcp-Session-Id (the SDK negotiates 2025-11-25). */
const httpLegacy: ConnectDoor = async (yaml) => {
  const gw = await startTestGateway(yaml);
  // Updates reach a session on its GET stream, which the SDK opens on its own after initialize: a subscription
  // is only useful once that stream is open, so the door waits for it before subscribing.
  let streamOpen!: () => void;
  const opened = new Promise<void>((resolve) => (streamOpen = resolve));
  const watchingFetch: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    if ((init?.method ?? 'GET') === 'GET' && res.ok && res.headers.get('content-type')?.startsWith('text/event-stream')) streamOpen();
    return res;
  };
  const client = new Client({ name: 'contract-http-legacy', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { fetch: watchingFetch }));
  return {
    client,
    protocolVersion: '2025-11-25',
    watchResource: subscribeWatch(client, () => opened),
    raw: (revision) => rawHttp(gw.url, revision),
    close: async () => {
      await client.close();
      await gw.stop();
    },
  };
};

/** Streamable HTTP in the 2026-07-28 revision: no initialize, a `_meta` envelope on every request. */
const httpStateless: ConnectDoor = async (yaml) => {
  const gw = await startTestGateway(yaml);
  const client = new Client({ name: 'contract-http-stateless', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
  return {
    client,
    protocolVersion: '2026-07-28',
    // No resources/subscribe in this revision: a subscriptions/listen stream names the URIs instead.
    // The acknowledgement names what the server agreed to; a URI missing from it is a refusal.
    watchResource: async (uri) => {
      const subscription = await client.listen({ resourceSubscriptions: [uri] });
      if (!subscription.honoredFilter.resourceSubscriptions?.includes(uri)) {
        await subscription.close();
        throw new Error(`subscriptions/listen did not honour ${uri}: ${JSON.stringify(subscription.honoredFilter)}`);
      }
      return () => subscription.close();
    },
    raw: (revision) => rawHttp(gw.url, revision),
    close: async () => {
      await client.close();
      await gw.stop();
    },
  };
};

/** WebSocket at /ws (subprotocol `mcp`), one session per connection, through sluice's own client transport. */
const websocket: ConnectDoor = async (yaml) => {
  const gw = await startTestGateway(yaml);
  const client = new Client({ name: 'contract-ws', version: '1.0.0' });
  await client.connect(new WebSocketClientTransport(gw.wsUrl));
  return {
    client,
    protocolVersion: '2025-11-25',
    watchResource: subscribeWatch(client),
    raw: (revision) => rawWebSocket(gw.wsUrl, revision),
    close: async () => {
      await client.close();
      await gw.stop();
    },
  };
};

const DOORS: [string, ConnectDoor][] = [
  ['stdio', stdio],
  ['Streamable HTTP, legacy session', httpLegacy],
  ['Streamable HTTP, stateless 2026-07-28', httpStateless],
  ['WebSocket', websocket],
];

describe.each(DOORS)('front door: %s', (_name, connect) => {
  frontDoorContract(connect);
});
