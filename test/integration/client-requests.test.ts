import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV2, postRaw } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { everythingYaml } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

function samplingClient(client: Client, reply: string, seen: string[]): void {
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const first = request.params.messages[0]?.content as { type: string; text?: string };
    seen.push(first?.text ?? '');
    return { role: 'assistant', content: { type: 'text', text: reply }, model: 'test-model', stopReason: 'endTurn' };
  });
}

describe('requests from a shared upstream back to the calling client', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(everythingYaml());
  });
  afterAll(async () => gw?.stop());

  it('routes sampling to the client whose call caused it', async () => {
    const alice = await connectV2(gw.url, 'legacy', { sampling: {} });
    const bob = await connectV2(gw.url, 'legacy', { sampling: {} });
    const aliceSeen: string[] = [];
    const bobSeen: string[] = [];
    samplingClient(alice, 'answer from alice', aliceSeen);
    samplingClient(bob, 'answer from bob', bobSeen);
    const result = await alice.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'what is 2+2', maxTokens: 20 } });
    expect(JSON.stringify(result.content)).toContain('answer from alice');
    expect(aliceSeen[0]).toContain('what is 2+2');
    expect(bobSeen).toEqual([]);
    await alice.close();
    await bob.close();
  });

  it('asks a stateless (2026-07-28) client through input_required, and resumes the call with its answer', async () => {
    const client = await connectV2(gw.url, 'modern', { sampling: {} });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const seen: string[] = [];
    samplingClient(client, 'answer over a round trip', seen);
    const result = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'stateless question', maxTokens: 20 } });
    expect(seen[0]).toContain('stateless question');
    expect(JSON.stringify(result.content)).toContain('answer over a round trip');
    await client.close();
  });

  it('refuses a forged or reused requestState', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
    const res = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'x' }, requestState: 'forged', inputResponses: {}, _meta: meta } }), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' });
    expect((res.json() as { error: { message: string } }).error.message).toMatch(/Unknown or expired requestState/);
  });

  it('routes elicitation to the calling client and returns its answer', async () => {
    const client = await connectV2(gw.url, 'legacy', { elicitation: {} });
    let asked = '';
    client.setRequestHandler('elicitation/create', async (request) => {
      asked = String((request.params as { message?: string }).message);
      return { action: 'decline' };
    });
    const result = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    expect(asked).not.toBe('');
    expect(JSON.stringify(result.content)).toMatch(/decline/i);
    await client.close();
  });

  it('refuses sampling for a client that did not declare it, with a clear tool error', async () => {
    const client = await connectV2(gw.url, 'legacy');
    const result = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'x', maxTokens: 5 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/did not declare the \\"sampling\\" capability/);
    await client.close();
  });
});

describe('per-session servers', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(everythingYaml('mine', { mode: 'per-session', maxSessions: 2 }));
  });
  afterAll(async () => gw?.stop());

  it('starts a process per session with the client\'s own capabilities, answers roots from that client, and ends it with the session', async () => {
    const client = await connectV2(gw.url, 'legacy', { roots: { listChanged: true } });
    let rootsAsked = 0;
    client.setRequestHandler('roots/list', async () => {
      rootsAsked++;
      return { roots: [{ uri: 'file:///tmp/project-of-this-client', name: 'mine' }] };
    });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mine__get-roots-list');
    await waitFor(() => rootsAsked > 0, 5000, 'roots/list from the upstream');
    const roots = await client.callTool({ name: 'mine__get-roots-list', arguments: {} });
    expect(JSON.stringify(roots.content)).toContain('project-of-this-client');

    const other = await connectV2(gw.url, 'legacy');
    const otherNames = (await other.listTools()).tools.map((t) => t.name);
    expect(otherNames).toContain('mine__echo');
    expect(otherNames).not.toContain('mine__get-roots-list');

    const pids = [...gw.gateway.sessions.all.values()].flatMap((s) => s.ownUpstreams.map((u) => u.pid));
    expect(new Set(pids).size).toBe(2);
    await client.close();
    await other.close();
    // close() on a Streamable HTTP client does not end its session; DELETE does. Either way the processes go.
    for (const s of [...gw.gateway.sessions.all.values()]) await gw.gateway.sessions.close(s);
    for (const pid of pids) await waitFor(() => !alive(pid!), 5000, `process ${pid} to exit`);
  });

  it('keeps to the cap when sessions initialise all at once (a slot is taken before the process starts), and tells the rest why', async () => {
    const settled = await Promise.allSettled(Array.from({ length: 6 }, () => connectV2(gw.url, 'legacy')));
    const clients = settled.filter((r): r is PromiseFulfilledResult<Client> => r.status === 'fulfilled').map((r) => r.value);
    const processes = [...gw.gateway.sessions.all.values()].flatMap((s) => s.ownUpstreams).filter((u) => u.pid !== undefined);
    expect(processes.length).toBeLessThanOrEqual(2);
    expect(clients).toHaveLength(2);
    for (const c of clients) expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    for (const r of settled) if (r.status === 'rejected') expect(String(r.reason)).toMatch(/per-session server "mine" has no free slot for this session: its 2 slots \(maxSessions\) are in use/);
    for (const s of [...gw.gateway.sessions.all.values()]) await gw.gateway.sessions.close(s);
    for (const c of clients) await c.close();
  });

  it('caps the number of per-session processes: a session beyond the cap is refused, not given an empty tool list', async () => {
    const clients = [await connectV2(gw.url, 'legacy'), await connectV2(gw.url, 'legacy')];
    await expect(connectV2(gw.url, 'legacy')).rejects.toThrow(/no free slot for this session/);
    for (const c of clients) expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    for (const c of clients) await c.close();
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('per-session servers that idle out', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(everythingYaml('mine', { mode: 'per-session', idleTimeoutSeconds: 1 }));
  });
  afterAll(async () => gw?.stop());

  it('stops an idle session\'s process and starts it again on its next request', async () => {
    const client = await connectV2(gw.url, 'legacy');
    await client.callTool({ name: 'mine__echo', arguments: { message: 'first' } });
    const session = [...gw.gateway.sessions.all.values()][0];
    const pid = session.ownUpstreams[0].pid!;
    await waitFor(() => !alive(pid), 5000, 'the idle process to stop');
    const again = await client.callTool({ name: 'mine__echo', arguments: { message: 'again' } });
    expect(again.content).toEqual([{ type: 'text', text: 'Echo: again' }]);
    expect(session.ownUpstreams[0].pid).not.toBe(pid);
    await client.close();
  });
});
