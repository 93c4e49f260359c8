import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING, FILESYSTEM, makeSandbox, OPEN_ACCESS } from '../helpers/servers.js';

describe('merging several servers', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
${OPEN_ACCESS}namespace:
  separator: "-"
mcpServers:
  one:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
    prefix: ""
  two:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
    prefix: ""
  fs:
    command: node
    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(makeSandbox())}]
    prefix: disk
`);
  });
  afterAll(async () => gw?.stop());

  it('uses the configured separator and prefix', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('disk-read_text_file');
    await client.close();
  });

  it('offers neither of two tools that claim the same name, and reports the clash', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('echo');
    await expect(client.callTool({ name: 'echo', arguments: { message: 'x' } })).rejects.toThrow(/Unknown tool: echo/);
    const readyz = (await (await fetch(gw.url.replace('/mcp', '/readyz'))).json()) as { conflicts: string[] };
    expect(readyz.conflicts).toContainEqual(expect.stringMatching(/tool name "echo" is claimed by "one" \(echo\), "two" \(echo\)/));
    await client.close();
  });

  it('gives a URI both servers list to the one declared first, and says so', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    const readyz = (await (await fetch(gw.url.replace('/mcp', '/readyz'))).json()) as { conflicts: string[] };
    expect(readyz.conflicts).toContainEqual(expect.stringMatching(new RegExp(`resource ${uris[0].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is offered by "one" and "two"; "one"`)));
    const read = await client.readResource({ uri: uris[0] });
    expect(read.contents.length).toBeGreaterThan(0);
    await client.close();
  });
});
