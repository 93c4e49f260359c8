import type { Client } from '@modelcontextprotocol/client';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/config/schema.js';
import { MAX_BATCH } from '../../src/protocol/versions.js';
import { EVERYTHING, ROOT } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';
import type { RawClient } from './raw-doors.js';

/**
 * One assertion set for every front door (after agentgateway's `standard_assertions`): whatever a client
 * connects over, it must see the same merged catalog, the same results, notifications, cancellation, errors
 * and refusals. A door is one factory; what a door genuinely does its own way (subscribing) the factory
 * supplies, and the assertions stay identical.
 */

/** One client connected through one front door, to a gateway of its own. */
export interface DoorConnection {
  client: Client;
  /** The revision this door's client must end up speaking (so a door cannot quietly fall back to another). */
  protocolVersion: string;
  /**
   * Asks for `notifications/resources/updated` about `uri` the door's way (`resources/subscribe` in a session,
   * `subscriptions/listen` with `resourceSubscriptions` when stateless); resolves when the gateway has said
   * yes, with the way to stop, and rejects (with an error naming the URI) when it has not.
   */
  watchResource(uri: string): Promise<() => Promise<void>>;
  /**
   * A client of the same door that sends text as given (raw-doors.ts), speaking `revision` — the door's own, or
   * 2025-03-26, the one with batches (on HTTP that is a legacy session on the same endpoint).
   */
  raw(revision: string): Promise<RawClient>;
  /** Closes the client and stops what serves the door. */
  close(): Promise<void>;
}

/** Starts a gateway from `yaml` behind one front door and connects a client to it. */
export type ConnectDoor = (yaml: string) => Promise<DoorConnection>;

export const PROBE = path.join(ROOT, 'test/contracts/probe-server.mjs');
const EVERYTHING_DOCS = path.join(path.dirname(EVERYTHING), 'docs');

/** The tool the role denies: the chokepoint must refuse it by name and hide it from the list. */
export const DENIED_TOOL = 'everything__get-env';

/**
 * The gateway every door serves: server-everything and the probe, one agent (the anonymous HTTP/WebSocket
 * client and the stdio client alike) whose role allows both servers' tools except one. Filters only label,
 * so results arrive unchanged; information flow is not under test here.
 */
export function contractYaml(dataDir: string): string {
  return `listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(dataDir)}
auth:
  required: false
  anonymousAgent: contract
  stdioAgent: contract
agents:
  contract: { role: caller }
roles:
  caller:
    default: deny
    onFlowViolation: allow
    filters: { secret: label, pii: label, injection: label }
    tools:
      "everything__*": allow
      "${DENIED_TOOL}": deny
      "probe__*": allow
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  probe:
    command: node
    args: [${JSON.stringify(PROBE)}]
`;
}

const LONG_RUNNING = 'everything__trigger-long-running-operation';

function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');
}

interface ProbeReport {
  holding: string[];
  cancelled: { marker: string; reason: unknown }[];
}

/** What the probe says about the holds it was given, read through the gateway. */
async function probeReport(client: Client): Promise<ProbeReport> {
  const result = await client.callTool({ name: 'probe__cancellations', arguments: {} });
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result));
}

/** The same, read by a raw client (whose gateway may be a process of its own). */
async function rawProbeReport(raw: RawClient, id: number): Promise<ProbeReport> {
  const reply = (await raw.send(JSON.stringify(raw.request(id, 'tools/call', { name: 'probe__cancellations', arguments: {} })))) as { result?: { content?: unknown } };
  expect(reply.result, JSON.stringify(reply)).toBeDefined();
  return JSON.parse(textOf(reply.result!));
}

/** A tools/call of echo, as a raw client's request. */
function echo(raw: RawClient, id: number, message: string): Record<string, unknown> {
  return raw.request(id, 'tools/call', { name: 'everything__echo', arguments: { message } });
}

/** The answer of echo to `message`, as a raw client reads it. */
function echoed(id: number, message: string): unknown {
  return expect.objectContaining({ jsonrpc: '2.0', id, result: expect.objectContaining({ content: [{ type: 'text', text: `Echo: ${message}` }] }) });
}

/**
 * Registers the assertions in the calling `describe`, against one client of one door (connected once, to a
 * gateway with a fresh data folder, and shared by every assertion).
 */
export function frontDoorContract(connect: ConnectDoor): void {
  let door: DoorConnection;
  /** A raw client in the door's own revision, opened by the first case that needs it. */
  let raw: RawClient | undefined;
  const rawClient = async () => (raw ??= await door.raw(door.protocolVersion));
  beforeAll(async () => {
    door = await connect(contractYaml(mkdtempSync(path.join(tmpdir(), 'sluice-contract-data-'))));
  });
  afterAll(async () => {
    await raw?.close();
    await door?.close();
  });

  it('connects to sluice in the revision the door speaks', () => {
    expect(door.client.getNegotiatedProtocolVersion()).toBe(door.protocolVersion);
    expect(door.client.getServerVersion()?.name).toBe('sluice');
  });

  it('lists the tools of both servers under merged names', async () => {
    const names = (await door.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', LONG_RUNNING, 'everything__toggle-subscriber-updates', 'probe__hold', 'probe__cancellations']));
    expect(names.filter((n) => !/^(everything|probe)__[A-Za-z0-9_-]+$/.test(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('lists prompts under merged names', async () => {
    const names = (await door.client.listPrompts()).prompts.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['everything__simple-prompt', 'everything__args-prompt', 'everything__resource-prompt']));
    expect(names.every((n) => n.startsWith('everything__'))).toBe(true);
  });

  it('lists the resources of both servers under their own URIs', async () => {
    const uris = (await door.client.listResources()).resources.map((r) => r.uri).sort();
    const docs = readdirSync(EVERYTHING_DOCS).map((f) => `demo://resource/static/document/${encodeURIComponent(f)}`);
    expect(uris).toEqual([...docs, 'probe://about'].sort());
  });

  it('calls echo and gets its result', async () => {
    const result = await door.client.callTool({ name: 'everything__echo', arguments: { message: 'through the front door' } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: through the front door' }]);
  });

  it('reads a resource', async () => {
    const uri = 'demo://resource/static/document/features.md';
    const read = await door.client.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: 'text/markdown', text: readFileSync(path.join(EVERYTHING_DOCS, 'features.md'), 'utf8') }]);
  });

  it('gets a prompt with arguments', async () => {
    const prompt = await door.client.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'Paris', state: 'Texas' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Paris, Texas?" } }]);
  });

  it('delivers notifications/resources/updated for a subscribed resource', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const updates: string[] = [];
    door.client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    const stop = await door.watchResource(uri);
    // server-everything sends updates for subscribed URIs once when this is switched on, then every 5 s.
    const toggled = await door.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    try {
      expect(textOf(toggled)).toMatch(/^Started simulated resource updated notifications/);
      await waitFor(() => updates.includes(uri), 12_000, `notifications/resources/updated for ${uri}`);
      expect(updates.every((u) => u === uri)).toBe(true);
    } finally {
      await door.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
      await stop();
    }
  });

  it('refuses a subscription to a resource nobody offers', async () => {
    const outcome = await door.watchResource('nowhere://nothing').then(
      async (stop) => (await stop(), 'subscribed'),
      (err: Error) => err.message,
    );
    expect(outcome, 'the answer to a subscription to nowhere://nothing').toMatch(/nowhere:\/\/nothing/);
  });

  it('relays progress notifications during a long-running call, then its result', async () => {
    const seen: { progress: number; total?: number }[] = [];
    const result = await door.client.callTool({ name: LONG_RUNNING, arguments: { duration: 0.6, steps: 3 } }, { onprogress: (p) => void seen.push(p) });
    expect(textOf(result)).toBe('Long running operation completed. Duration: 0.6 seconds, Steps: 3.');
    // The SDK client runs notification handlers a microtask late but settles a response at once (and drops the
    // call's progress handler then), so the last step, written just before the result, is lost whenever both
    // arrive in one read (seen over stdio). The steps before it must all have arrived, in order, during the call.
    expect(seen.slice(0, 2)).toEqual([1, 2].map((progress) => expect.objectContaining({ progress, total: 3 })));
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3].slice(0, seen.length));
  });

  it('cancels a call in flight: the client stops waiting, the upstream hears of it, the gateway keeps serving', async () => {
    const marker = `hold-${Math.random().toString(36).slice(2)}`;
    const controller = new AbortController();
    const call = door.client.callTool({ name: 'probe__hold', arguments: { marker } }, { signal: controller.signal });
    const settled = call.then(
      () => 'answered',
      () => 'rejected',
    );
    await waitFor(async () => (await probeReport(door.client)).holding.includes(marker), 5000, 'the hold to reach the probe');
    const aborted = Date.now();
    controller.abort('changed my mind');
    expect(await settled).toBe('rejected');
    expect(Date.now() - aborted).toBeLessThan(2000);
    await waitFor(async () => (await probeReport(door.client)).cancelled.some((c) => c.marker === marker), 5000, 'notifications/cancelled at the probe');
    expect((await probeReport(door.client)).holding).not.toContain(marker);
    const echo = await door.client.callTool({ name: 'everything__echo', arguments: { message: 'still serving' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: still serving' }]);
  });

  it('answers an unknown tool, prompt or resource with a JSON-RPC error naming it', async () => {
    await expect(door.client.callTool({ name: 'everything__no-such-tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: everything__no-such-tool'),
    });
    await expect(door.client.getPrompt({ name: 'everything__no-such-prompt' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown prompt: everything__no-such-prompt'),
    });
    // A URI no server offers is sluice's own answer (two servers have resources). On the wire it is -32002 in
    // the legacy revisions and -32602 in 2026-07-28; the SDK reads both as ResourceNotFoundError (-32602, uri).
    await expect(door.client.readResource({ uri: 'nowhere://nothing' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'nowhere://nothing' },
      message: expect.stringContaining('Resource not found: nowhere://nothing'),
    });
  });

  it('refuses a tool the role denies at the tool-rule step, and hides it from the list', async () => {
    const names = (await door.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain(DENIED_TOOL);
    const result = await door.client.callTool({ name: DENIED_TOOL, arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^sluice refused this call at the tool-rule step: /);
    expect(textOf(result)).toContain(DENIED_TOOL);
  });

  it('answers a message over http.maxBodyBytes with one JSON-RPC error naming the limit, and serves the next one', async () => {
    const client = await rawClient();
    const oversized = JSON.stringify(echo(client, 11, 'x'.repeat(DEFAULT_MAX_BODY_BYTES)));
    expect(await client.send(oversized)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(new RegExp(`^Invalid Request: .*exceeds the limit of ${DEFAULT_MAX_BODY_BYTES} bytes$`)) },
    });
    expect(await client.send(JSON.stringify(echo(client, 12, 'after the oversized one')))).toEqual(echoed(12, 'after the oversized one'));
  });

  it('refuses a batch in a revision without batches whole: one JSON-RPC error, none of its entries run', async () => {
    const client = await rawClient();
    const marker = `batch-${Math.random().toString(36).slice(2)}`;
    const batch = [client.request(21, 'tools/call', { name: 'probe__hold', arguments: { marker } }), echo(client, 22, 'in a refused batch')];
    // -32600 where the door's session says its revision has no batches; the stateless door has no session to
    // batch in, and says so (-32000: Mcp-Session-Id required).
    expect(await client.send(JSON.stringify(batch))).toEqual({ jsonrpc: '2.0', id: null, error: { code: expect.toBeOneOf([-32600, -32000]), message: expect.any(String) } });
    expect((await rawProbeReport(client, 23)).holding).not.toContain(marker);
    expect(await client.send(JSON.stringify(echo(client, 24, 'after the batch')))).toEqual(echoed(24, 'after the batch'));
  });

  it('answers a 2025-03-26 batch in one array: each request on its own, notifications not at all; refuses an empty or oversized one', async () => {
    const client = await door.raw('2025-03-26');
    try {
      const batch = [
        echo(client, 1, 'one'),
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nothing-running', reason: 'none' } },
        echo(client, 2, 'two'),
        client.request(3, 'tools/call', { name: 'everything__no-such-tool', arguments: {} }),
        { jsonrpc: '2.0', id: 4 },
      ];
      const reply = (await client.send(JSON.stringify(batch))) as { id: number }[];
      expect(Array.isArray(reply), JSON.stringify(reply)).toBe(true);
      expect([...reply].sort((a, b) => a.id - b.id)).toEqual([
        echoed(1, 'one'),
        echoed(2, 'two'),
        { jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: -32602, message: expect.stringContaining('Unknown tool: everything__no-such-tool') }) },
        { jsonrpc: '2.0', id: 4, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } },
      ]);
      expect(await client.send('[]')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: empty batch' } });
      const tooMany = JSON.stringify(Array.from({ length: MAX_BATCH + 1 }, (_, i) => client.request(100 + i, 'ping')));
      expect(await client.send(tooMany)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Invalid Request: a batch may hold at most ${MAX_BATCH} messages, this one has ${MAX_BATCH + 1}` },
      });
    } finally {
      await client.close();
    }
  });
}
