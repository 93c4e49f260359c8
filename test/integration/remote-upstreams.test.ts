import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING, everythingYaml, OPEN_ACCESS } from '../helpers/servers.js';
import { FORCE_LOOPBACK, freePort, spawnUntil } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

/** server-everything over HTTP (Streamable and old SSE), and a second sluice over WebSocket, as upstreams. */
describe('remote upstreams: http, sse and ws', () => {
  const children: ChildProcess[] = [];
  let inner: TestGateway;
  let outer: TestGateway;

  beforeAll(async () => {
    const httpPort = await freePort();
    const ssePort = await freePort();
    const env = { NODE_OPTIONS: `--require ${FORCE_LOOPBACK}` };
    children.push(await spawnUntil('node', [EVERYTHING, 'streamableHttp'], /listening on port/, { ...env, PORT: String(httpPort) }));
    children.push(await spawnUntil('node', [EVERYTHING, 'sse'], /listening on port|running on/i, { ...env, PORT: String(ssePort) }));
    inner = await startTestGateway(everythingYaml('local'));
    outer = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
${OPEN_ACCESS}mcpServers:
  viahttp:
    type: http
    url: http://127.0.0.1:${httpPort}/mcp
    headers:
      X-Upstream-Secret: never-shown-to-clients
  viasse:
    type: sse
    url: http://127.0.0.1:${ssePort}/sse
  viaws:
    url: ${inner.wsUrl}
`);
  });

  afterAll(async () => {
    await outer?.stop();
    await inner?.stop();
    for (const c of children) c.kill();
  });

  it('connects to each kind of remote server', async () => {
    const status = (await (await fetch(outer.url.replace('/mcp', '/readyz'))).json()) as { upstreams: { name: string; state: string; transport: string }[] };
    expect(status.upstreams.map((u) => [u.name, u.transport, u.state])).toEqual([
      ['viahttp', 'http', 'ready'],
      ['viasse', 'sse', 'ready'],
      ['viaws', 'ws', 'ready'],
    ]);
    expect(JSON.stringify(status)).not.toContain('never-shown-to-clients');
  });

  it('calls tools and reads blobs through every one of them', async () => {
    const client = await connectV2(outer.url, 'legacy');
    for (const name of ['viahttp__echo', 'viasse__echo', 'viaws__local__echo']) {
      const result = await client.callTool({ name, arguments: { message: name } });
      expect(result.content).toEqual([{ type: 'text', text: `Echo: ${name}` }]);
    }
    const blob = (await client.readResource({ uri: 'demo://resource/dynamic/blob/3' })).contents[0] as { blob: string };
    expect(Buffer.from(blob.blob, 'base64').length).toBeGreaterThan(0);
    await client.close();
  });

  it('relays progress across two gateways over WebSocket', async () => {
    const client = await connectV2(outer.url, 'legacy');
    const seen: number[] = [];
    await client.callTool({ name: 'viaws__local__trigger-long-running-operation', arguments: { duration: 0.5, steps: 3 } }, { onprogress: (p) => void seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
    await client.close();
  });

  it('refreshes and relays an upstream\'s own list_changed to clients within a second', async () => {
    const client = await connectV2(outer.url, 'legacy');
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    await new Promise((r) => setTimeout(r, 200));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('viaws__local__echo');
    // Killing the inner gateway's server makes the inner gateway send tools/list_changed to the outer one.
    process.kill(inner.gateway.upstreams[0].pid!, 'SIGKILL');
    const started = Date.now();
    await waitFor(() => changed > 0, 1000, 'list_changed relayed by the outer gateway');
    expect(Date.now() - started).toBeLessThan(1000);
    await waitFor(async () => !(await client.listTools()).tools.some((t) => t.name === 'viaws__local__echo'), 1000, 'the tool to leave the list');
    await client.close();
  });
});
