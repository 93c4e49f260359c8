import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { FIXTURE, OPEN_ACCESS } from '../helpers/servers.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\n${OPEN_ACCESS}mcpServers:\n  fixture:\n    command: node\n    args: [--import, tsx, ${JSON.stringify(FIXTURE)}]\n    prefix: ""\n`);
});
afterAll(async () => gw?.stop());

async function listening(level: 'debug' | 'error'): Promise<{ client: Client; logs: string[] }> {
  const client = await connectV2(gw.url, 'legacy');
  const logs: string[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
  await new Promise((r) => setTimeout(r, 150)); // the SDK opens the session's event stream
  await client.setLoggingLevel(level);
  return { client, logs };
}

describe('log messages from a shared upstream', () => {
  it('reach a caller at debug level even after another client asked for errors only', async () => {
    const verbose = await listening('debug');
    const quiet = await listening('error');
    await verbose.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(verbose.logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    expect(quiet.logs).toEqual([]);
    await verbose.client.close();
    await quiet.client.close();
  });

  it('written during one client\'s call never reach another client', async () => {
    const caller = await listening('debug');
    const bystander = await listening('debug');
    await caller.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(caller.logs).toHaveLength(3);
    expect(bystander.logs).toEqual([]);
    await caller.client.close();
    await bystander.client.close();
  });
});
