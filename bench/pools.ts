import { processCpuNs, type CpuSplit } from './cpu.js';
import type { EchoClient } from './echo-client.js';
import { LeanHttpSession } from './lean-http.js';
import { LeanStdioClient } from './lean-stdio.js';
import { SdkHttpClient, SdkStdioClient } from './sdk-clients.js';
import type { ClientKind, PathName } from './settings.js';
import type { HttpTarget } from './http-target.js';

/** The clients for one path and client kind: clients[i] is caller i's own session. */
export interface Pool {
  clients: EchoClient[];
  /** CPU used so far by the gateway and the upstream server(s) this pool talks to. */
  cpu(): CpuSplit;
  close(): Promise<void>;
}

/** Sessions are opened a few at a time: 64 at once would make supergateway spawn 64 servers in one burst. */
const OPEN_PARALLEL = 8;

async function openMany(size: number, open: () => Promise<EchoClient>): Promise<EchoClient[]> {
  const clients: EchoClient[] = [];
  try {
    while (clients.length < size) {
      const batch = Math.min(OPEN_PARALLEL, size - clients.length);
      clients.push(...(await Promise.all(Array.from({ length: batch }, open))));
    }
  } catch (err) {
    await Promise.allSettled(clients.map((c) => c.close()));
    throw err;
  }
  return clients;
}

/**
 * Opens `size` sessions. Over HTTP each caller gets its own MCP session (the lean ones share one keep-alive
 * agent, which never holds more sockets than calls in flight). Over stdio there is no session beyond the
 * process: one server-everything, and every caller shares its single connection, as sluice and mcp-proxy
 * share one upstream process among all their sessions.
 */
export async function openPool(path: PathName, kind: ClientKind, target: HttpTarget | undefined, size: number): Promise<Pool> {
  if (path === 'stdio') {
    const client = kind === 'sdk' ? await SdkStdioClient.open() : await LeanStdioClient.open();
    return {
      clients: Array.from({ length: size }, () => client),
      cpu: () => ({ gateway: 0, upstream: processCpuNs(client.pid) }),
      close: () => client.close(),
    };
  }
  if (!target) throw new Error(`no running target for ${path}`);
  if (kind === 'sdk') {
    const clients = await openMany(size, () => SdkHttpClient.open(target.url, target.tool, target.headers));
    return { clients, cpu: () => target.cpu(), close: async () => void (await Promise.allSettled(clients.map((c) => c.close()))) };
  }
  const agent = LeanHttpSession.agent(size);
  const clients = await openMany(size, () => LeanHttpSession.open(target.url, target.tool, agent, target.headers));
  return {
    clients,
    cpu: () => target.cpu(),
    close: async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
      agent.destroy();
    },
  };
}
