import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { defaultYaml, EVERYTHING, everythingYaml, makeSandbox, ROOT } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

let gw: TestGateway;
let sandbox: string;
const SWITCHABLE = path.join(ROOT, 'test/fixtures/switchable-server.mjs');

let switchOff: string;

beforeAll(async () => {
  sandbox = makeSandbox();
  switchOff = path.join(sandbox, '..', `switch-off-${process.pid}`);
  // "everything" runs through a wrapper that the test can keep from starting, so a crash stays a crash for as
  // long as the test looks at it.
  gw = await startTestGateway(
    defaultYaml(sandbox)
      .replace(`args: [${JSON.stringify(EVERYTHING)}, stdio]`, `args: [${JSON.stringify(SWITCHABLE)}]\n    env: { SWITCH_OFF: ${JSON.stringify(switchOff)}, SERVER_ENTRY: ${JSON.stringify(EVERYTHING)} }`)
      .replace(
        'mcpServers:\n',
        `mcpServers:
  broken:
    command: node
    args: [-e, "process.exit(3)"]
`,
      ),
  );
});
afterAll(async () => gw?.stop());

async function readyz(): Promise<{ status: number; body: { ready: boolean; upstreams: { name: string; state: string; reason?: string }[] } }> {
  const res = await fetch(gw.url.replace('/mcp', '/readyz'));
  return { status: res.status, body: (await res.json()) as never };
}

describe('upstream failures', () => {
  it('starts despite an upstream that cannot start, and says so in /readyz', async () => {
    const { status, body } = await readyz();
    expect(status).toBe(503);
    const broken = body.upstreams.find((u) => u.name === 'broken')!;
    expect(broken.state).not.toBe('ready');
    expect(broken.reason).toBe('exited');
    expect(body.upstreams.find((u) => u.name === 'everything')?.state).toBe('ready');
    const health = await fetch(gw.url.replace('/mcp', '/healthz'));
    expect(health.status).toBe(200);
  });

  it('drops a crashed upstream from the lists, keeps serving the other, and takes it back when it returns', async () => {
    const client = await connectV2(gw.url, 'legacy');
    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void listChanged++);
    await new Promise((r) => setTimeout(r, 200)); // let the SDK open the session's event stream

    // A stateless client hears about it on its subscriptions/listen stream.
    let modernChanges = 0;
    const modern = new Client({ name: 'modern-listener', version: '1' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      listChanged: { tools: { onChanged: () => void modernChanges++ } },
    });
    await modern.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
    await waitFor(() => gw.gateway.fanOut.listeners.size > 0, 3000, 'the stateless client to start listening');

    const everything = gw.gateway.upstreams.find((u) => u.name === 'everything')!;
    const pid = everything.pid!;
    expect(pid).toBeGreaterThan(0);
    // A slow call in flight when the server dies must end with a clear tool error, not hang.
    const inflight = client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 10, steps: 5 } });
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(switchOff, '');
    process.kill(pid, 'SIGKILL');

    const failed = await inflight;
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toMatch(/everything/);

    // The issue asks for list_changed to reach every client within a second.
    await waitFor(() => listChanged > 0, 1000, 'tools/list_changed after the crash');
    await waitFor(() => modernChanges > 0, 1000, 'list_changed on the stateless listen stream');
    await modern.close();
    const during = (await client.listTools()).tools.map((t) => t.name);
    expect(during.some((n) => n.startsWith('everything__'))).toBe(false);
    const file = await client.callTool({ name: 'files__read_text_file', arguments: { path: `${sandbox}/hello.txt` } });
    expect(file.content).toEqual([{ type: 'text', text: 'hello from the sandbox\n' }]);
    await expect(client.callTool({ name: 'everything__echo', arguments: { message: 'x' } })).rejects.toThrow(/Unknown tool/);

    expect(everything.lastError).toMatch(/exited with code 3 \(last stderr: switched off\)|killed by SIGKILL/);
    const changesBefore = listChanged;
    unlinkSync(switchOff);
    await waitFor(() => everything.state === 'ready', 15_000, 'the upstream to come back');
    expect(everything.pid).not.toBe(pid);
    await waitFor(() => listChanged > changesBefore, 3000, 'tools/list_changed after the return');
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'back again' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: back again' }]);
    await client.close();
  });

  it('retries a failing upstream with exponentially growing, jittered delays', async () => {
    // A gateway of its own: its retries are watched from their start, however long the tests before
    // this one took (a shared gateway could already be at its 8 and 16 s delays; CI once waited past 20 s).
    const own = await startTestGateway(everythingYaml().replace('mcpServers:\n', 'mcpServers:\n  broken:\n    command: node\n    args: [-e, "process.exit(3)"]\n'));
    try {
      const broken = own.gateway.upstreams.find((u) => u.name === 'broken')!;
      const delays = new Map<number, number>();
      await waitFor(() => {
        // Read only between attempts: while one runs, the delay shown is still the previous one.
        if (broken.state === 'unavailable' && broken.retryDelayMs !== undefined) delays.set(broken.attempts, broken.retryDelayMs);
        return delays.size >= 4;
      }, 30_000, 'four retries');
      for (const [attempt, delay] of delays) {
        const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
        expect(delay, `attempt ${attempt}`).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay, `attempt ${attempt}`).toBeLessThanOrEqual(ceiling);
      }
      const body = (await (await fetch(own.url.replace('/mcp', '/readyz'))).json()) as Awaited<ReturnType<typeof readyz>>['body'];
      expect(body.upstreams.find((u) => u.name === 'broken')?.state).not.toBe('ready');
    } finally {
      await own.stop();
    }
  }, 45_000);

  it('gives up on a call the server does not answer in time, with a tool error, and keeps serving', async () => {
    const slow = await startTestGateway(everythingYaml('everything', { requestTimeoutSeconds: 0.5 }));
    try {
      const client = await connectV2(slow.url, 'legacy');
      const started = Date.now();
      const result = await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 5, steps: 5 } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/did not answer tools\/call within 500 ms/);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await client.callTool({ name: 'everything__echo', arguments: { message: 'ok' } })).content).toEqual([{ type: 'text', text: 'Echo: ok' }]);
      await client.close();
    } finally {
      await slow.stop();
    }
  });
});
