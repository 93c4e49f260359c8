import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { it, expect } from 'vitest';
import { startTestGateway } from '../helpers/gateway.js';
import { defaultYaml, makeSandbox } from '../helpers/servers.js';
import { installGlobalWebSocket } from '../helpers/ws-client.js';

it('probe', async () => {
  installGlobalWebSocket();
  const gw = await startTestGateway(defaultYaml(makeSandbox()));
  for (const kind of ['ws', 'http']) {
    const c = new Client({ name: 'p', version: '1' }, { capabilities: { sampling: {}, elicitation: {} } });
    c.setRequestHandler(CreateMessageRequestSchema, async (req) => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'sampled:' + JSON.stringify(req.params.messages[0].content).slice(0, 40) } }));
    c.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    await c.connect(kind === 'ws' ? new WebSocketClientTransport(new URL(gw.wsUrl)) : new StreamableHTTPClientTransport(new URL(gw.url)));
    const tools = (await c.listTools()).tools.map((t) => t.name);
    console.log(kind, tools.filter((t) => t.includes('trigger')));
    try {
      const r = await c.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 10 } });
      console.log(kind, 'sampling', JSON.stringify(r).slice(0, 300));
    } catch (e) { console.log(kind, 'sampling err', String(e)); }
    try {
      const r = await c.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
      console.log(kind, 'elicit', JSON.stringify(r).slice(0, 300));
    } catch (e) { console.log(kind, 'elicit err', String(e)); }
    const progress: unknown[] = [];
    const r = await c.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } }, undefined, { onprogress: (p) => progress.push(p) });
    console.log(kind, 'progress', progress, JSON.stringify(r).slice(0, 100));
    await c.setLoggingLevel('debug');
    const logs: unknown[] = [];
    c.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    await new Promise((r) => setTimeout(r, 500));
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    console.log(kind, 'logs', JSON.stringify(logs).slice(0, 300));
    const comp = await c.complete({ ref: { type: 'ref/prompt', name: 'everything__completable-prompt' }, argument: { name: 'department', value: 'S' } });
    console.log(kind, 'complete', JSON.stringify(comp));
    await c.close();
  }
  await gw.stop();
}, 60000);
