import { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/schema.js';
import { createClientTransport } from '../protocol/client-transport.js';
import { SLUICE_VERSION } from '../version.js';

/** What one server offers, as its SDK client listed it. */
export interface ServerOffer {
  name: string;
  client: Client;
  tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  resources: Awaited<ReturnType<Client['listResources']>>['resources'];
  templates: Awaited<ReturnType<Client['listResourceTemplates']>>['resourceTemplates'];
  prompts: Awaited<ReturnType<Client['listPrompts']>>['prompts'];
  instructions?: string;
}

/**
 * The MCP servers an agent talks to — any servers, or a sluice gateway, through the official SDK client only.
 * Lists are read at connect and again, before the next turn, after a server says one changed.
 */
export class AgentServers {
  readonly offers: ServerOffer[] = [];
  private stale = new Set<ServerOffer>();

  private constructor() {}

  static async connect(servers: ServerConfig[], onChange?: () => void): Promise<AgentServers> {
    const self = new AgentServers();
    await Promise.all(
      servers.map(async (server) => {
        const client = new Client({ name: 'sluice-agent', version: SLUICE_VERSION }, { capabilities: {} });
        // The gateway's own transports and stdio environment; no onStderr, so a stdio server's logging is
        // dropped rather than landing in the agent's terminal.
        await client.connect(createClientTransport(server));
        const offer: ServerOffer = { name: server.name, client, tools: [], resources: [], templates: [], prompts: [], instructions: client.getInstructions() };
        await self.read(offer);
        for (const method of ['notifications/tools/list_changed', 'notifications/resources/list_changed', 'notifications/prompts/list_changed'] as const) {
          client.setNotificationHandler(method, () => {
            self.stale.add(offer);
            onChange?.();
          });
        }
        self.offers.push(offer);
      }),
    );
    // Keep config order whatever order the connections finished in.
    const order = new Map(servers.map((s, i) => [s.name, i]));
    self.offers.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
    return self;
  }

  /** Re-reads the lists of servers that announced a change; returns whether anything was re-read. */
  async refresh(): Promise<boolean> {
    if (this.stale.size === 0) return false;
    const stale = [...this.stale];
    this.stale.clear();
    await Promise.all(stale.map((o) => this.read(o)));
    return true;
  }

  private async read(offer: ServerOffer): Promise<void> {
    const caps = offer.client.getServerCapabilities() ?? {};
    const [tools, resources, templates, prompts] = await Promise.all([
      caps.tools ? offer.client.listTools().then((r) => r.tools) : [],
      caps.resources ? offer.client.listResources().then((r) => r.resources) : [],
      caps.resources ? offer.client.listResourceTemplates().then((r) => r.resourceTemplates).catch(() => []) : [],
      caps.prompts ? offer.client.listPrompts().then((r) => r.prompts) : [],
    ]);
    offer.tools = tools;
    offer.resources = resources;
    offer.templates = templates;
    offer.prompts = prompts;
  }

  async close(): Promise<void> {
    await Promise.all(this.offers.map((o) => o.client.close().catch(() => undefined)));
  }
}
