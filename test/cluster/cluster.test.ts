import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_SERVER, startCluster, type Cluster } from '../helpers/cluster.js';
import { runSluice } from '../helpers/sluice-cli.js';
import { postRaw } from '../helpers/clients.js';
import { openRawSocket } from '../helpers/ws-client.js';
import { ROOT } from '../helpers/servers.js';
import path from 'node:path';

const ASKER = path.join(ROOT, 'test/fixtures/asker-server.mjs');
import { waitFor } from '../helpers/wait.js';

/**
 * Three sluice replicas as separate processes on one Redis and one Postgres, behind nginx running the shipped
 * deploy/nginx.conf: plain round robin, no stickiness. Every claim of the cluster mode is tried through it
 * with real clients, and one replica is killed with SIGKILL under load.
 */
let cluster: Cluster;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  cluster = await startCluster(`agents:
  alice: { role: dev }
  carol: { role: careful }
  lim: { role: limited }
roles:
  dev:
    default: deny
    tools: { "jobs__*": allow, "vault__*": allow, "asker__*": allow }
    filters: { secret: label, pii: label, injection: label }
  careful:
    default: deny
    tools: { "jobs__work": approve, "jobs__whoami": allow }
  limited:
    default: deny
    tools: { "jobs__*": allow }
    rateLimit: { perSecond: 0.05, burst: 6 }
approvals:
  timeoutSeconds: 30
mcpServers:
  jobs:
    command: node
    args: [${JSON.stringify(CLUSTER_SERVER)}]
    env: { REPLICA: "\${REPLICA}", EXECUTIONS: "\${EXECUTIONS}", MODE: jobs }
    label: { integrity: trusted }
  asker:
    command: node
    args: [${JSON.stringify(ASKER)}]
  vault:
    command: node
    args: [${JSON.stringify(CLUSTER_SERVER)}]
    env: { REPLICA: "\${REPLICA}", MODE: vault }
    label: { integrity: trusted, confidentiality: secret }
`);
  for (const agent of ['alice', 'carol', 'lim']) tokens[agent] = await cluster.token(agent);
  tokens.admin = await cluster.token('', true);
}, 120_000);
afterAll(async () => cluster?.stop(), 60_000);

type Kind = 'v2-legacy' | 'v2-stateless' | 'v1';
interface AnyClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function connect(kind: Kind, token: string, url = cluster.url): Promise<AnyClient> {
  const requestInit = { headers: { authorization: `Bearer ${token}` } };
  if (kind === 'v1') {
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(new HttpV1(new URL(url), { requestInit }));
    return client;
  }
  const options = kind === 'v2-stateless' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
  const client = new ClientV2({ name: kind, version: '1' }, options);
  await client.connect(new HttpV2(new URL(url), { requestInit }));
  return client;
}

const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');
const isError = (result: unknown) => (result as { isError?: boolean }).isError === true;

describe('a cluster of three replicas behind nginx', () => {
  it('spreads a legacy session over every replica with no "session not found", for the SDK v2 and v1 clients; stateless clients work too', async () => {
    for (const kind of ['v2-legacy', 'v1', 'v2-stateless'] as const) {
      const client = await connect(kind, tokens.alice);
      const served = new Set<string>();
      for (let i = 0; i < 9; i++) {
        const result = await client.callTool({ name: 'jobs__whoami', arguments: {} });
        expect(isError(result), `${kind}: ${textOf(result)}`).toBe(false);
        served.add(textOf(result));
      }
      expect([...served].sort(), kind).toEqual(['replica-a', 'replica-b', 'replica-c']);
      await client.close();
    }
  });

  it('serves the 2024-11-05 HTTP+SSE transport whose POSTs land on other replicas than its stream, and WebSockets through nginx', async () => {
    const headers = { authorization: `Bearer ${tokens.alice}` };
    const old = new ClientV1({ name: 'old-sse', version: '1' });
    await old.connect(
      new SSEClientTransport(new URL(cluster.url.replace('/mcp', '/sse')), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
      }),
    );
    // The POSTs go round the replicas (a replica that did not find the stream would answer 404, and the call
    // fail); each runs on the replica holding the stream, where its answer is written.
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await old.callTool({ name: 'jobs__whoami', arguments: {} });
      expect(isError(result)).toBe(false);
      served.add(textOf(result));
    }
    expect(served.size).toBe(1);
    await old.close();

    const socket = await openRawSocket(cluster.url.replace('http:', 'ws:').replace('/mcp', '/ws'), { headers });
    await socket.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ws', version: '1' } });
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const answer = await socket.request('tools/call', { name: 'jobs__whoami', arguments: {} });
    expect(answer.result.content[0].text).toMatch(/^replica-[abc]$/);
    await socket.close();
  });

  it('refuses on every replica a write after a read of secret data on one of them, for that session and the agent\'s others', async () => {
    const reader = await connect('v2-legacy', tokens.alice);
    expect(textOf(await reader.callTool({ name: 'vault__read_secret', arguments: {} }))).toContain('7731');
    // Round robin: three sends reach the two replicas that did not serve the read as well.
    for (let i = 0; i < 3; i++) {
      const sent = await reader.callTool({ name: 'vault__send', arguments: { text: 'the code' } });
      expect(isError(sent)).toBe(true);
      expect(textOf(sent)).toMatch(/information-flow step: the session holds secret data/);
    }
    const other = await connect('v1', tokens.alice);
    for (let i = 0; i < 3; i++) expect(isError(await other.callTool({ name: 'vault__send', arguments: { text: 'x' } }))).toBe(true);
    await Promise.all([reader.close(), other.close()]);
  });

  it('holds one rate limit across the replicas: a burst of 6 is 6 calls in all, wherever they land', async () => {
    const clients = await Promise.all([connect('v2-legacy', tokens.lim), connect('v1', tokens.lim), connect('v2-stateless', tokens.lim)]);
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const result = await clients[i % 3].callTool({ name: 'jobs__whoami', arguments: {} });
      outcomes.push(isError(result) ? 'refused' : 'ok');
      if (isError(result)) expect(textOf(result)).toMatch(/rate/i);
    }
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(6);
    expect(outcomes.slice(6)).toEqual(Array(6).fill('refused'));
    await Promise.all(clients.map((c) => c.close()));
  });

  it('pauses every replica within a second when one is told to, and resumes them all', async () => {
    const direct = await Promise.all(cluster.replicas.map((r) => connect('v2-legacy', tokens.alice, `${r.url}/mcp`)));
    const admin = (r: number, what: 'pause' | 'resume') => fetch(`${cluster.replicas[r].url}/admin/${what}`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` } });
    expect((await admin(0, 'pause')).status).toBe(200);
    const t0 = performance.now();
    const refusedAt: number[] = [];
    await Promise.all(
      direct.map(async (client, i) => {
        await waitFor(async () => isError(await client.callTool({ name: 'jobs__whoami', arguments: {} })), 2000, `replica ${i} paused`);
        refusedAt.push(performance.now() - t0);
      }),
    );
    expect(Math.max(...refusedAt)).toBeLessThan(1000);
    expect((await admin(2, 'resume')).status).toBe(200);
    await Promise.all(direct.map((client) => waitFor(async () => !isError(await client.callTool({ name: 'jobs__whoami', arguments: {} })), 2000, 'resumed')));
    await Promise.all(direct.map((c) => c.close()));
  });

  it('resumes a stateless call parked on replica A when its retry with the answers reaches replica B; a forged or spent state is refused', async () => {
    const [a, b, c] = cluster.replicas;
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', authorization: `Bearer ${tokens.alice}` };
    const call = (url: string, params: Record<string, unknown>) =>
      postRaw(`${url}/mcp`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'asker__ask_then_progress', arguments: {}, ...params, _meta: meta } }), headers);
    const first = (await call(a.url, {})).json() as { result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string } };
    expect(first.result.resultType).toBe('input_required');
    const [key] = Object.keys(first.result.inputRequests);
    const answers = { [key]: { action: 'accept', content: { ok: true } } };
    const resumed = (await call(b.url, { requestState: first.result.requestState, inputResponses: answers })).json() as { result: { content: { text: string }[] } };
    expect(resumed.result.content[0].text).toBe('answered: {"ok":true}');
    // Spent: the same state again, on a third replica, is refused; so is a forged one.
    const again = (await call(c.url, { requestState: first.result.requestState, inputResponses: answers })).json() as { error: { message: string } };
    expect(again.error.message).toMatch(/Unknown or expired requestState/);
    const forged = (await call(c.url, { requestState: `${first.result.requestState.slice(0, -4)}AAAA`, inputResponses: answers })).json() as { error: { message: string } };
    expect(forged.error.message).toMatch(/Unknown or expired requestState/);
  });

  it('lets a call waiting for approval on replica A be approved through replica B\'s CLI, and returns its real result', async () => {
    const [a, b] = cluster.replicas;
    const client = await connect('v2-legacy', tokens.carol, `${a.url}/mcp`);
    const call = client.callTool({ name: 'jobs__work', arguments: { id: 'approved-1', ms: 0 } });
    const cli = (args: string[]) => runSluice([...args, '--config', b.config, '--url', b.url, '--token', tokens.admin]);
    let id = '';
    await waitFor(
      async () => {
        const listed = await cli(['approvals', 'list']);
        id = /^([0-9a-f]{32})\s+carol\s+jobs__work/m.exec(listed.stdout)?.[1] ?? '';
        return id !== '';
      },
      15_000,
      'the request listed on replica B',
    );
    const approved = await cli(['approvals', 'approve', id]);
    expect(approved.stdout).toContain(`${id}: granted`);
    expect(textOf(await call)).toBe('done approved-1 on replica-a');
    await client.close();
  });
});

describe('kill -9 of a replica under load', () => {
  it('fails only the calls in flight on it; none runs twice; sessions and a subscription go on; every answered call is in Postgres; the log verifies; the replica rejoins', async () => {
    // A subscriber: the replica holding its GET stream is the one that serves its updates — the one to kill.
    const subscriber = new ClientV2({ name: 'subscriber', version: '1' });
    const updates: { at: number; replica: string }[] = [];
    subscriber.setNotificationHandler('notifications/resources/updated' as never, ((n: { params: { _meta?: { replica?: string } } }) => {
      updates.push({ at: performance.now(), replica: String(n.params._meta?.replica) });
    }) as never);
    const transport = new HttpV2(new URL(cluster.url), {
      requestInit: { headers: { authorization: `Bearer ${tokens.alice}` } },
      reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 20 },
    });
    await subscriber.connect(transport);
    await (subscriber as unknown as { subscribeResource(p: { uri: string }): Promise<unknown> }).subscribeResource({ uri: 'cluster://ticker' });
    await waitFor(() => updates.length >= 3, 10_000, 'updates before the kill');
    const victimName = updates[updates.length - 1].replica;
    const victim = cluster.replicas.find((r) => r.name === victimName)!;

    const kinds: Kind[] = ['v2-legacy', 'v2-legacy', 'v2-legacy', 'v1', 'v1', 'v2-stateless', 'v2-stateless', 'v2-legacy'];
    const clients = await Promise.all(kinds.map((k) => connect(k, tokens.alice)));
    interface Call {
      id: string;
      start: number;
      end: number;
      ok: boolean;
      text: string;
    }
    const calls: Call[] = [];
    let killAt = Infinity;
    let stop = false;
    const loops = clients.map(async (client, c) => {
      for (let n = 0; !stop; n++) {
        const id = `c${c}-${n}`;
        const start = performance.now();
        try {
          const result = await client.callTool({ name: 'jobs__work', arguments: { id, ms: 20 + ((n * 37) % 80) } });
          calls.push({ id, start, end: performance.now(), ok: !isError(result), text: textOf(result) });
        } catch (err) {
          calls.push({ id, start, end: performance.now(), ok: false, text: String(err) });
        }
      }
    });
    await waitFor(() => calls.length >= 2 * clients.length, 20_000, 'every client to be answered before the kill');
    // From the signal to the process being gone: a call sent in between is in flight on a dying replica.
    await victim.kill();
    killAt = performance.now();
    // Enough calls after the kill to cover every client and replica, however long the machine takes to make them.
    await waitFor(() => calls.filter((c) => c.start > killAt + 50).length > 40, 30_000, '40 calls after the kill');
    stop = true;
    await Promise.all(loops);

    // Only calls in flight at the kill failed, each with an error; every one started after it succeeded.
    const failed = calls.filter((c) => !c.ok);
    expect(failed.length).toBeLessThanOrEqual(clients.length);
    for (const f of failed) expect(f.start, `${f.id}: ${f.text}`).toBeLessThan(killAt);
    const after = calls.filter((c) => c.start > killAt + 50);
    expect(after.length).toBeGreaterThan(40);
    expect(after.filter((c) => !c.ok)).toEqual([]);
    expect(after.some((c) => c.text.endsWith(`on ${victimName}`))).toBe(false);

    // No call ran twice; every answered call ran exactly once.
    const ran = readFileSync(cluster.executions, 'utf8').split('\n').filter(Boolean);
    const counts = new Map<string, number>();
    for (const id of ran) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    for (const c of calls.filter((x) => x.ok)) expect(counts.get(c.id), c.id).toBe(1);

    // The subscriber's stream was on the dead replica: the SDK reopens it, another replica serves it.
    const since = performance.now();
    await waitFor(() => updates.some((u) => u.at > since && u.replica !== victimName), 10_000, 'updates from another replica');

    // Every call whose result a client received is in Postgres, and the whole log verifies with the shared key.
    const db = new pg.Client({ connectionString: cluster.postgres.url });
    await db.connect();
    const bodies = (await db.query<{ body: string }>("SELECT body FROM audit WHERE target = 'jobs__work' AND outcome = 'allow'")).rows.map((r) => r.body).join('\n');
    await db.end();
    const recorded = new Set(bodies.match(/\bc\d+-\d+\b/g));
    const missing = calls.filter((c) => c.ok && !recorded.has(c.id)).map((c) => c.id);
    expect(missing).toEqual([]);
    const verify = await runSluice(['audit', 'verify', '--config', cluster.replicas[0].config, '--key', cluster.publicKey]);
    expect(verify.stdout + verify.stderr).toMatch(/^OK: \d+ records verified/m);
    expect(verify.code).toBe(0);
    // --strict: nothing after the last signed head — the survivors sign what the dead replica left unsigned.
    await waitFor(async () => (await runSluice(['audit', 'verify', '--strict', '--config', cluster.replicas[0].config, '--key', cluster.publicKey])).code === 0, 15_000, 'audit verify --strict');

    // The replica comes back and serves again.
    await victim.start();
    const probe = await connect('v2-legacy', tokens.alice);
    await waitFor(async () => textOf(await probe.callTool({ name: 'jobs__whoami', arguments: {} })) === victimName, 10_000, 'the restarted replica serving');
    await Promise.all([...clients, probe].map((c) => c.close().catch(() => undefined)));
    await subscriber.close();
  }, 90_000);
});
