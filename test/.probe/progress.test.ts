import { it } from 'vitest';
import { startTestGateway } from '../helpers/gateway.js';
import { defaultYaml, makeSandbox } from '../helpers/servers.js';
import { openRawSocket } from '../helpers/ws-client.js';
import { rawSession } from '../helpers/clients.js';

it('progress order', async () => {
  const gw = await startTestGateway(defaultYaml(makeSandbox()));
  const sock = await openRawSocket(gw.wsUrl);
  await sock.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'r', version: '1' } });
  sock.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  for (let i = 0; i < 4; i++) {
    sock.send(JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 }, _meta: { progressToken: 'p' + i } } }));
    const frames: string[] = [];
    for (;;) {
      const f = await sock.next();
      frames.push(f.method ? `${f.method}:${f.params.progress}` : `result:${f.id}`);
      if (f.id === 100 + i) break;
    }
    console.log('ws', frames.join(' '));
  }
  await sock.close();
  await gw.stop();
}, 60000);
