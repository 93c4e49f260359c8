import { Client, type ClientCapabilities, type CreateMessageRequestParams, type CreateMessageResult, type ElicitRequestParams, type ElicitResult, type Root } from '@modelcontextprotocol/client';
import { createClientTransport } from '../protocol/client-transport.js';
import { SLUICE_VERSION } from '../version.js';
import { serverStartError } from './errors.js';
import type { NamedServer } from './server-spec.js';

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

/** A server that could not be used, and why, in one line. */
export interface ServerFailure {
  name: string;
  reason: string;
}

/**
 * What the agent can do for servers, as an MCP client. Each one is offered (as a capability) only when given:
 * a server then sees that this client can sample, ask the user, or name its roots.
 */
export interface ClientFeatures {
  /** Answers a server's `sampling/createMessage` with the agent's model (after the user agreed). */
  sampling?: (server: string, params: CreateMessageRequestParams) => Promise<CreateMessageResult>;
  /** Answers a server's `elicitation/create`: a form or a URL to open. */
  elicitation?: (server: string, params: ElicitRequestParams) => Promise<ElicitResult>;
  /** The roots offered to servers, as they are now. */
  roots?: () => Root[];
}

export interface ConnectOptions extends ClientFeatures {
  /** How long one server may take to start and answer `initialize` (default 30 s). */
  connectTimeoutMs?: number;
}

const LIST_CHANGED = ['notifications/tools/list_changed', 'notifications/resources/list_changed', 'notifications/prompts/list_changed'] as const;

/**
 * The MCP servers an agent talks to — any servers, or a sluice gateway, through the official SDK client only.
 * Lists are read at connect and again, before the next model step, after a server says one changed. A server
 * that cannot be started is left out and named in `failures`; the others are used.
 */
export class AgentServers {
  readonly offers: ServerOffer[] = [];
  readonly failures: ServerFailure[] = [];
  private stale = new Set<ServerOffer>();

  private constructor() {}

  static async connect(servers: NamedServer[], options: ConnectOptions = {}): Promise<AgentServers> {
    const self = new AgentServers();
    const timeoutMs = options.connectTimeoutMs ?? 30_000;
    const settled = await Promise.allSettled(servers.map((server) => self.connectOne(server, timeoutMs, options)));
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') self.offers.push(s.value);
      else self.failures.push({ name: servers[i].name, reason: serverStartError(servers[i], s.reason, timeoutMs) });
    });
    // Keep config order whatever order the connections finished in.
    const order = new Map(servers.map((s, i) => [s.name, i]));
    self.offers.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
    return self;
  }

  private async connectOne(server: NamedServer, timeoutMs: number, options: ClientFeatures): Promise<ServerOffer> {
    const client = new Client({ name: 'sluice-agent', version: SLUICE_VERSION }, { capabilities: capabilitiesOf(options) });
    handleServerRequests(client, server.name, options);
    try {
      // The gateway's own transports and stdio environment; no onStderr, so a stdio server's logging is
      // dropped rather than landing in the agent's terminal.
      await client.connect(createClientTransport(server), { timeout: timeoutMs });
      const offer: ServerOffer = { name: server.name, client, tools: [], resources: [], templates: [], prompts: [], instructions: client.getInstructions() };
      for (const method of LIST_CHANGED) client.setNotificationHandler(method, () => void this.stale.add(offer));
      await this.read(offer);
      return offer;
    } catch (err) {
      // A half-started server must not keep the agent alive: close what was opened.
      await client.close().catch(() => undefined);
      throw err;
    }
  }

  /** Whether some server announced a change not read yet. */
  get changed(): boolean {
    return this.stale.size > 0;
  }

  /** Re-reads the lists of servers that announced a change; returns whether anything was re-read. */
  async refresh(): Promise<boolean> {
    if (this.stale.size === 0) return false;
    const stale = [...this.stale];
    this.stale.clear();
    await Promise.all(stale.map((o) => this.read(o)));
    return true;
  }

  /** Tells every server that the roots changed; each asks for the new list. */
  async rootsChanged(): Promise<void> {
    await Promise.all(this.offers.map((o) => o.client.sendRootsListChanged().catch(() => undefined)));
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

function capabilitiesOf(features: ClientFeatures): ClientCapabilities {
  return {
    ...(features.sampling ? { sampling: {} } : {}),
    ...(features.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
    ...(features.roots ? { roots: { listChanged: true } } : {}),
  };
}

/** The requests a server may send this client; the SDK validates them and the answers against the schema. */
function handleServerRequests(client: Client, server: string, features: ClientFeatures): void {
  const { sampling, elicitation, roots } = features;
  if (sampling) client.setRequestHandler('sampling/createMessage', (request) => sampling(server, request.params));
  if (elicitation) client.setRequestHandler('elicitation/create', (request) => elicitation(server, request.params));
  if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
}
