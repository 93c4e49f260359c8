import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { OPEN_ACCESS, ROOT } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

/** Questions an upstream asks a client during a call: progress after the answer, and a question taken back. */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\n${OPEN_ACCESS}mcpServers:\n  asker:\n    command: node\n    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/asker-server.mjs'))}]\n`);
});
afterAll(async () => gw?.stop());

describe('questions from an upstream', () => {
  it('delivers progress sent after an input_required round trip to the stateless client\'s retry', async () => {
    const client = await connectV2(gw.url, 'modern', { elicitation: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
    const progress: number[] = [];
    const result = await client.callTool({ name: 'asker__ask_then_progress', arguments: {} }, { onprogress: (p) => void progress.push(p.progress) });
    expect((result.content as { text: string }[])[0].text).toBe('answered: {"ok":true}');
    // The three the upstream sent after the answer (the SDK may report one of its own for the round trip first).
    expect(progress.slice(-3)).toEqual([1, 2, 3]);
    await client.close();
  });

  it('forwards an upstream\'s cancellation of its question to the client', async () => {
    const client = await connectV2(gw.url, 'legacy', { elicitation: {} });
    let aborted = false;
    client.setRequestHandler('elicitation/create', (_req, ctx) => new Promise((resolve) => {
      ctx.mcpReq.signal.addEventListener('abort', () => {
        aborted = true;
        resolve({ action: 'cancel' });
      });
    }));
    const result = await client.callTool({ name: 'asker__ask_then_cancel', arguments: {} });
    expect((result.content as { text: string }[])[0].text).toBe('gave up asking');
    await waitFor(() => aborted, 3000, 'the client to hear that the question was cancelled');
    await client.close();
  });
});
