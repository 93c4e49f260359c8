import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2 } from '../helpers/clients.js';
import { CLUSTER_SERVER } from '../helpers/cluster.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { OPEN_ACCESS } from '../helpers/servers.js';

/** A server with resources but no resources/templates/list (it answers -32601) is up, with no templates. */
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\n${OPEN_ACCESS}mcpServers:\n  jobs:\n    command: node\n    args: [${JSON.stringify(CLUSTER_SERVER)}]\n    env: { REPLICA: one, EXECUTIONS: /dev/null }\n`);
});
afterAll(async () => gw?.stop());

describe('an upstream without resource templates', () => {
  it('is ready, lists its resources and tools, and has no templates', async () => {
    const status = (await (await fetch(gw.url.replace('/mcp', '/readyz'))).json()) as { ready: boolean; upstreams: { name: string; state: string }[] };
    expect(status.upstreams.find((u) => u.name === 'jobs')?.state).toBe('ready');
    const client = await connectV2(gw.url, 'legacy');
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['cluster://ticker']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('jobs__whoami');
    await client.close();
  });
});
