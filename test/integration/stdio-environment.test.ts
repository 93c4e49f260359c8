import type { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentServers } from '../../src/agent/servers.js';
import { parseConfig } from '../../src/config/load.js';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { everythingYaml } from '../helpers/servers.js';

/** Stands for the API keys an agent or a gateway holds (OPENAI_API_KEY, SLUICE_* …). */
const SECRET = 'SLUICE_TEST_SECRET_API_KEY';
/** What the server's own config entry hands it. */
const GIVEN = 'SLUICE_TEST_GIVEN_VALUE';

// server-everything with one variable of its own in its config; its get-env tool answers with its process.env.
const YAML = everythingYaml('everything', { env: `{ ${GIVEN}: from-config }` });

let agentServers: AgentServers | undefined;
let gw: TestGateway | undefined;
let gatewayClient: Client | undefined;

beforeAll(() => {
  // Set before anything spawns: both spawners run in this process, so they see it in their environment.
  process.env[SECRET] = 'sk-must-not-leak';
});
afterAll(async () => {
  await gatewayClient?.close();
  await gw?.stop();
  await agentServers?.close();
  delete process.env[SECRET];
});

async function envOf(client: Client, tool: string): Promise<Record<string, string>> {
  const result = await client.callTool({ name: tool, arguments: {} });
  const [first] = result.content as { type: string; text?: string }[];
  expect(first?.type).toBe('text');
  return JSON.parse(first.text ?? '{}') as Record<string, string>;
}

/** The one policy, spelled out: the SDK's safe base plus the server's config env, and nothing else. */
function expectOnlyBaseAndConfig(env: Record<string, string>): void {
  expect(env[SECRET]).toBeUndefined();
  expect(env[GIVEN]).toBe('from-config');
  expect(env.PATH).toBe(process.env.PATH);
  expect(Object.keys(env).sort()).toEqual([...Object.keys(getDefaultEnvironment()), GIVEN].sort());
}

describe('the environment of spawned stdio servers', () => {
  it('an agent-spawned server gets the safe base and its config env, not the agent environment', async () => {
    agentServers = await AgentServers.connect(parseConfig(YAML, 'agent.yaml', {}).servers);
    const [offer] = agentServers.offers;
    expect(offer.tools.map((t) => t.name)).toContain('get-env');
    expectOnlyBaseAndConfig(await envOf(offer.client, 'get-env'));
  });

  it("a gateway upstream gets the same, not the gateway's environment", async () => {
    gw = await startTestGateway(YAML);
    gatewayClient = await connectV2(gw.url, 'legacy');
    expectOnlyBaseAndConfig(await envOf(gatewayClient, 'everything__get-env'));
  });
});
