import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2, rawSession } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { defaultYaml, makeSandbox } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway(defaultYaml(makeSandbox(), 'pageSize: 5'));
});
afterAll(async () => gw?.stop());

describe('streaming and notifications through sluice', () => {
  it('relays progress notifications to the caller, with its own token', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const seen: { progress: number; total?: number }[] = [];
    const result = await client.callTool(
      { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 4 } },
      { onprogress: (p) => void seen.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(seen.every((p) => p.total === 4)).toBe(true);
    await client.close();
  });

  it('pages merged lists with an opaque cursor and returns every entry exactly once', async () => {
    const session = await rawSession(gw.url);
    const pages: number[] = [];
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await session.call('tools/list', cursor ? { cursor } : {});
      pages.push(body.result.tools.length);
      names.push(...body.result.tools.map((t: { name: string }) => t.name));
      cursor = body.result.nextCursor;
    } while (cursor);
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.slice(0, -1).every((n) => n === 5)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('everything__echo');
    expect(names).toContain('files__write_file');
    // The SDK client walks the pages itself and must see the same list.
    const client = await connectV2(gw.url, 'legacy');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(names);
    await expect(client.listTools({ cursor: 'not-a-cursor-we-made' })).rejects.toThrow(/Invalid cursor/);
    await client.close();
  });

  it('delivers resource updates only to the sessions that subscribed', async () => {
    const subscriber = await connectV2(gw.url, 'legacy');
    const bystander = await connectV2(gw.url, 'legacy');
    const updates: string[] = [];
    const strayUpdates: string[] = [];
    subscriber.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    bystander.setNotificationHandler('notifications/resources/updated', (n) => void strayUpdates.push(n.params.uri));
    // Updates travel on the session's GET stream; give the SDK a moment to open it.
    await new Promise((r) => setTimeout(r, 200));
    const { resources } = await subscriber.listResources();
    const uri = resources[0].uri;
    await subscriber.subscribeResource({ uri });
    await subscriber.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    try {
      await waitFor(() => updates.includes(uri), 15_000);
      expect(strayUpdates).toEqual([]);
    } finally {
      await subscriber.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
      await subscriber.close();
      await bystander.close();
    }
  });

  it('relays upstream log messages to a session that set a level', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const messages: { level: string; logger?: string }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params as never));
    await new Promise((r) => setTimeout(r, 200));
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    try {
      await waitFor(() => messages.length > 0, 15_000);
      expect(messages[0].logger).toBeDefined();
    } finally {
      await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
      await client.close();
    }
  });
});
