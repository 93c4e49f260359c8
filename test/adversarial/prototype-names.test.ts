import { renameSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore, hashToken } from '../../src/identity/tokens.js';
import { HOSTILE_NAMES, HOSTILE_TEMPLATE, HOSTILE_URIS, NEVER_OFFERED, PROTO_JSON } from '../fixtures/prototype-names.js';
import { connectV2, postRaw, rawSession } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { EVERYTHING, OPEN_ACCESS, ROOT } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';
import { upgradeStatus } from '../helpers/ws-client.js';

/**
 * Names from clients, upstreams and token files are data: `constructor`, `toString`, `__proto__` and friends
 * must be unknown names (or, when an upstream really offers them, names like any other) — never a prototype
 * lookup, a crash or a wrong route. The gateway runs in this process, so a polluted prototype here is a
 * polluted gateway.
 */

const PROTO_SERVER = path.join(ROOT, 'test/fixtures/prototype-server.ts');
const MODERN = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const ENVELOPE_JSON = JSON.stringify(ENVELOPE).slice(1, -1);

type Rpc = { jsonrpc: '2.0'; id: unknown; result?: any; error?: { code: number; message: string; data?: unknown } };
interface Answered {
  id: string | number;
  method: string;
  answer: Rpc | null;
}

/** The value of an own property, or undefined: `x.__proto__` would read the prototype instead. */
function own(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? Object.getOwnPropertyDescriptor(value, key)?.value : undefined;
}

// ---- no pollution --------------------------------------------------------------------------------------------

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype];
const shapeOf = () => PROTOTYPES.map((p) => Reflect.ownKeys(p).map(String).sort().join(','));
const shapeBefore = shapeOf();

function expectNoPollution(): void {
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as { constructor: unknown }).constructor).toBe(Object);
  expect((Object as unknown as { prototype: Record<string, unknown> }).prototype.polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect(shapeOf()).toEqual(shapeBefore);
}

// ---- wire helpers --------------------------------------------------------------------------------------------

/** A stateless (2026-07-28) request as raw JSON text; `paramsJson` is the inside of the params object. */
async function statelessRaw(url: string, method: string, paramsJson: string, headers: Record<string, string> = {}) {
  const body = `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":{${paramsJson}${paramsJson ? ',' : ''}"_meta":{${ENVELOPE_JSON}}}}`;
  const res = await postRaw(url, body, { 'mcp-protocol-version': MODERN, accept: 'application/json', ...headers });
  return { status: res.status, body: (res.text ? res.json() : undefined) as Rpc };
}

async function expectServing(gw: TestGateway): Promise<void> {
  const base = gw.url.replace(/\/mcp$/, '');
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const ready = await fetch(`${base}/readyz`);
  const status = (await ready.json()) as { upstreams: { name: string; state: string }[] };
  expect(status.upstreams.map((u) => `${u.name}:${u.state}`)).toEqual(['everything:ready', 'proto:ready']);
  expect(ready.status).toBe(200);
}

async function expectEchoAnswers(gw: TestGateway, message = 'still serving'): Promise<void> {
  const echo = await statelessRaw(gw.url, 'tools/call', `"name":"everything__echo","arguments":{"message":${JSON.stringify(message)}}`);
  expect(echo.status).toBe(200);
  expect(echo.body.error).toBeUndefined();
  expect(textOf(echo.body.result)).toContain(message);
}

// ---- the gateway in front of the fixture and server-everything --------------------------------------------

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
${OPEN_ACCESS}mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  proto:
    command: node
    args: [--import, tsx, ${JSON.stringify(PROTO_SERVER)}]
`);
});
afterAll(async () => gw?.stop());

describe('an upstream that sends hostile method names and ids', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2(gw.url, 'legacy');
  });
  afterAll(async () => client?.close());

  it('answers its requests from right after initialize with JSON-RPC errors, under the ids it chose', async () => {
    const answers = JSON.parse(textOf(await client.callTool({ name: 'proto__report', arguments: {} }))) as Answered[];
    expect(answers.length).toBe(HOSTILE_NAMES.length * 3 + 2);
    for (const { id, method, answer } of answers) {
      expect(answer, `an answer to ${method} (id ${JSON.stringify(id)})`).not.toBeNull();
      expect(answer!.id).toBe(id);
      if (method === 'ping') {
        expect(answer!.result).toEqual({});
        continue;
      }
      expect(answer!.result, method).toBeUndefined();
      if (method === 'sampling/createMessage' || method === 'elicitation/create' || method === 'roots/list') {
        // A request an upstream may send, but no client call was in flight, so nobody could be asked.
        expect(answer!.error, method).toMatchObject({ code: -32603, message: expect.stringMatching(/no client call is in flight/) });
        continue;
      }
      // Anything else is no request an upstream may send (the method table): refused as unknown, whatever the name.
      expect(answer!.error, method).toMatchObject({ code: -32601, message: expect.stringMatching(/^Method not found: /) });
    }
    expect(answers.find((a) => a.id === '__proto__')?.method).toBe('__proto__');
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('answers hostile requests sent during a call with "method not found", over a legacy session', async () => {
    const answers = JSON.parse(textOf(await client.callTool({ name: 'proto__fire', arguments: {} }))) as Answered[];
    expect(answers.length).toBe(HOSTILE_NAMES.length * 3 + 2);
    for (const { id, method, answer } of answers) {
      expect(answer, `an answer to ${method} (id ${JSON.stringify(id)})`).not.toBeNull();
      expect(answer!.id).toBe(id);
      if (method === 'ping') expect(answer!.result).toEqual({});
      else if (method === 'sampling/createMessage') expect(answer!.error).toMatchObject({ code: -32600, message: expect.stringMatching(/"sampling" capability/) });
      else expect(answer!.error, method).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('does the same for a stateless (2026-07-28) call, which would park on a real question', async () => {
    const res = await statelessRaw(gw.url, 'tools/call', '"name":"proto__fire","arguments":{}');
    expect(res.status).toBe(200);
    expect(res.body.result.resultType).toBe('complete');
    const answers = JSON.parse(textOf(res.body.result)) as Answered[];
    for (const { method, answer } of answers) {
      if (method === 'ping') expect(answer?.result).toEqual({});
      else if (method === 'sampling/createMessage') expect(answer?.error?.code).toBe(-32600);
      else expect(answer?.error, method).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('delivers a resource update for a URI named __proto__ to its subscriber, and no other URI', async () => {
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: '__proto__' });
    // fire sends notifications/resources/updated for every hostile name; only __proto__ is subscribed.
    await client.callTool({ name: 'proto__fire', arguments: {} });
    await waitFor(() => updates.includes('__proto__'), 5000, 'the __proto__ update');
    await new Promise((r) => setTimeout(r, 200));
    expect(updates).toEqual(['__proto__']);
    await client.unsubscribeResource({ uri: '__proto__' });
    await expectServing(gw);
  });
});

describe('clients naming what nobody offers', () => {
  const UNKNOWN_TOOLS = [
    ...HOSTILE_NAMES,
    ...NEVER_OFFERED,
    'everything__toString',
    'everything____proto__',
    'everything__constructor',
    'everything__hasOwnProperty',
    'proto__prototype',
    'proto__isPrototypeOf',
    'proto____lookupGetter__',
  ];
  const UNKNOWN_URIS = ['valueOf', 'hasOwnProperty', '__defineGetter__', ...NEVER_OFFERED, 'everything__toString', 'proto://constructor'];

  it('refuses tools/call of inherited names with "Unknown tool" (SDK client)', async () => {
    const client = await connectV2(gw.url, 'legacy');
    for (const name of UNKNOWN_TOOLS) await expect(client.callTool({ name, arguments: {} }), name).rejects.toThrow(`Unknown tool: ${name}`);
    expect(textOf(await client.callTool({ name: 'everything__echo', arguments: { message: 'after' } }))).toContain('after');
    await client.close();
    await expectServing(gw);
    expectNoPollution();
  });

  it('refuses tools/call, prompts/get, resources/read, completion/complete and subscribe with clean errors (raw legacy session)', async () => {
    const s = await rawSession(gw.url);
    for (const name of UNKNOWN_TOOLS) {
      const r = await s.call('tools/call', { name, arguments: {} });
      expect(r.status, name).toBe(200);
      expect(r.body.error, name).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
      const p = await s.call('prompts/get', { name, arguments: {} });
      expect(p.body.error, name).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
    }
    for (const uri of UNKNOWN_URIS) {
      const r = await s.call('resources/read', { uri });
      expect(r.body.error, uri).toEqual({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
      const sub = await s.call('resources/subscribe', { uri });
      expect(sub.body.error?.code, uri).toBe(-32002);
      const c = await s.call('completion/complete', { ref: { type: 'ref/resource', uri }, argument: { name: '__proto__', value: '' } });
      expect(c.body.error?.code, uri).toBe(-32002);
    }
    for (const name of ['__proto__', 'constructor', 'everything____proto__']) {
      const c = await s.call('completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: 'x', value: '' } });
      expect(c.body.error, name).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
    }
    // A name that is not a string at all, with an inherited name inside it.
    const odd = await s.call('tools/call', { name: JSON.parse(PROTO_JSON), arguments: {} });
    expect(odd.body.error).toEqual({ code: -32602, message: '"name" must be a non-empty string' });
    const ok = await s.call('tools/call', { name: 'everything__echo', arguments: { message: 'raw after' } });
    expect(textOf(ok.body.result)).toContain('raw after');
    await expectServing(gw);
    expectNoPollution();
  });

  it('refuses the same names from a stateless (2026-07-28) client', async () => {
    for (const name of UNKNOWN_TOOLS) {
      const r = await statelessRaw(gw.url, 'tools/call', `"name":${JSON.stringify(name)},"arguments":{}`, { 'mcp-method': 'tools/call' });
      expect(r.body.error, name).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
      const p = await statelessRaw(gw.url, 'prompts/get', `"name":${JSON.stringify(name)}`);
      expect(p.body.error, name).toEqual({ code: -32602, message: `Unknown prompt: ${name}` });
    }
    for (const uri of UNKNOWN_URIS) {
      const r = await statelessRaw(gw.url, 'resources/read', `"uri":${JSON.stringify(uri)}`);
      expect(r.body.error, uri).toEqual({ code: -32602, message: `Resource not found: ${uri}`, data: { uri } });
    }
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('answers inherited method names with "method not found", and ignores responses and sessions it never issued', async () => {
    const s = await rawSession(gw.url);
    const methods = [...HOSTILE_NAMES, ...NEVER_OFFERED, ...HOSTILE_NAMES.map((n) => `tools/${n}`)];
    for (const method of methods) {
      const r = await s.call(method, JSON.parse(PROTO_JSON));
      expect(r.body.error, method).toEqual({ code: -32601, message: `Method not found: ${method}` });
      const stateless = await statelessRaw(gw.url, method, '', { 'mcp-method': method });
      expect(stateless.status, method).toBe(404);
      expect(stateless.body.error?.code, method).toBe(-32601);
    }
    const headers = { 'mcp-session-id': s.id, 'mcp-protocol-version': '2025-11-25' };
    for (const n of HOSTILE_NAMES) {
      // A notification with an inherited method, and answers to requests sluice never sent.
      expect((await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', method: n, params: JSON.parse(PROTO_JSON) }), headers)).status).toBe(202);
      expect((await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', method: `notifications/${n}` }), headers)).status).toBe(202);
      for (const id of [n, `sluice-${n}`]) {
        expect((await postRaw(gw.url, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${PROTO_JSON}}`, headers)).status).toBe(202);
        expect((await postRaw(gw.url, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":1,"message":"x"}}`, headers)).status).toBe(202);
      }
      // A request id that is an inherited name comes back as that id.
      const byId = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: n, method: 'ping' }), { ...headers, accept: 'application/json' });
      expect(byId.json()).toEqual({ jsonrpc: '2.0', id: n, result: {} });
      // A session id that is an inherited name is no session.
      const session = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'mcp-session-id': n });
      expect(session.status, n).toBe(404);
    }
    expect((await s.call('ping')).body.result).toEqual({});
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });
});

describe('__proto__ keys in what clients and upstreams send', () => {
  const HOSTILE_META = `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"progressToken":"__proto__","traceparent":"__proto__"}`;

  function expectReceivedAsData(received: Record<string, unknown>): void {
    // The upstream got every __proto__ key as an ordinary own key: data passed through, not a prototype set.
    expect(own(received.arguments, '__proto__')).toEqual({ polluted: true });
    expect(own(received.arguments, 'constructor')).toEqual({ prototype: { polluted: true } });
    expect(own(received, '__proto__')).toEqual({ polluted: true });
    const meta = received._meta as Record<string, unknown>;
    expect(Object.keys(meta).filter((k) => k.startsWith('io.modelcontextprotocol/'))).toEqual([]);
    expect(String(meta.progressToken)).toMatch(/^sluice-\d+$/);
    expect(own(meta, 'constructor')).toEqual({ prototype: { polluted: true } });
    expect(own(meta, '__proto__'), '_meta.__proto__ reached the upstream as data').toEqual({ polluted: true });
  }

  it('passes __proto__ keys in params, arguments and _meta of a legacy call through as data, polluting nothing', async () => {
    const s = await rawSession(gw.url);
    const body = `{"jsonrpc":"2.0","id":"__proto__","method":"tools/call","params":{"name":"proto__echo_params","arguments":${PROTO_JSON},"_meta":${HOSTILE_META},"__proto__":{"polluted":true}}}`;
    const res = await postRaw(gw.url, body, { 'mcp-session-id': s.id, 'mcp-protocol-version': '2025-11-25', accept: 'application/json' });
    expect(res.status).toBe(200);
    const answer = res.json() as Rpc;
    expect(answer.id).toBe('__proto__');
    expectReceivedAsData(JSON.parse(textOf(answer.result)) as Record<string, unknown>);
    expectNoPollution();
    const echo = await postRaw(gw.url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"everything__echo","arguments":{"message":"proto echo","__proto__":{"polluted":true}},"_meta":${HOSTILE_META}}}`, { 'mcp-session-id': s.id, 'mcp-protocol-version': '2025-11-25', accept: 'application/json' });
    expect(textOf((echo.json() as Rpc).result)).toContain('proto echo');
    expectNoPollution();
  });

  it('passes them through the same way for a stateless (2026-07-28) call', async () => {
    const body = `{"jsonrpc":"2.0","id":"__proto__","method":"tools/call","params":{"name":"proto__echo_params","arguments":${PROTO_JSON},"__proto__":{"polluted":true},"_meta":${HOSTILE_META.slice(0, -1)},${ENVELOPE_JSON}}}}`;
    const res = await postRaw(gw.url, body, { 'mcp-protocol-version': MODERN, accept: 'application/json' });
    expect(res.status).toBe(200);
    const answer = res.json() as Rpc;
    expect(answer.id).toBe('__proto__');
    expectNoPollution();
    expectReceivedAsData(JSON.parse(textOf(answer.result)) as Record<string, unknown>);
  });

  it('takes __proto__ keys in an upstream result as data: passed on, never a prototype, never isError', async () => {
    const s = await rawSession(gw.url);
    const res = await s.call('tools/call', { name: 'proto__proto_result', arguments: {} });
    const result = res.body.result as Record<string, unknown>;
    expect(textOf(result)).toBe('proto result');
    expect(Object.hasOwn(result, 'isError')).toBe(false);
    expect(own(result, '__proto__')).toEqual({ polluted: true });
    expect(own(result.structuredContent, '__proto__')).toEqual({ polluted: true });
    expect(own((result.content as unknown[])[0], '__proto__')).toEqual({ polluted: true });
    expectNoPollution();
    // The SDK client parses the same result without being polluted either.
    const client = await connectV2(gw.url, 'legacy');
    const viaSdk = await client.callTool({ name: 'proto__proto_result', arguments: {} });
    expect(textOf(viaSdk)).toBe('proto result');
    expect(viaSdk.isError).not.toBe(true);
    await client.close();
    expectNoPollution();
    await expectServing(gw);
  });
});

describe('entries an upstream really names constructor, __proto__, toString …', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2(gw.url, 'legacy');
  });
  afterAll(async () => client?.close());

  it('lists its tools under their merged names and routes each call to its own tool', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of HOSTILE_NAMES) {
      expect(names).toContain(`proto__${n}`);
      expect(textOf(await client.callTool({ name: `proto__${n}`, arguments: {} }))).toBe(`called ${n}`);
    }
    expect(names.filter((n) => n.startsWith('proto__'))).toHaveLength(HOSTILE_NAMES.length + 4);
    const readyz = (await (await fetch(gw.url.replace(/\/mcp$/, '/readyz'))).json()) as { conflicts: string[] };
    expect(readyz.conflicts).toEqual([]);
  });

  it('lists its prompts under their merged names and gets each one, with a __proto__ argument as data', async () => {
    const names = (await client.listPrompts()).prompts.map((p) => p.name);
    const s = await rawSession(gw.url);
    for (const n of HOSTILE_NAMES) {
      expect(names).toContain(`proto__${n}`);
      const got = await s.call('prompts/get', { name: `proto__${n}`, arguments: JSON.parse('{"__proto__":"x"}') });
      expect(got.body.error, n).toBeUndefined();
      expect(got.body.result.messages[0].content.text).toBe(`prompt ${n} {"__proto__":"x"}`);
    }
    const completion = await s.call('completion/complete', { ref: { type: 'ref/prompt', name: 'proto____proto__' }, argument: { name: '__proto__', value: '' } });
    expect(completion.body.result.completion.values).toEqual([...HOSTILE_NAMES]);
  });

  it('lists its resources by URI and reads each from it, templates included', async () => {
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    for (const uri of HOSTILE_URIS) {
      expect(uris).toContain(uri);
      const read = await client.readResource({ uri });
      expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: `resource ${uri}` }]);
    }
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toContain(HOSTILE_TEMPLATE);
    const read = await client.readResource({ uri: 'proto://constructor/toString' });
    expect(read.contents[0]).toMatchObject({ text: 'template constructor toString' });
    await expectServing(gw);
    expectNoPollution();
  });
});

// ---- a gateway that needs tokens, in front of the fixture with no prefix -------------------------------------

describe('with authentication, and the fixture offering the bare names', () => {
  let secure: TestGateway;
  const tokens: Record<string, string> = {};
  let alice = '';
  /** Tokens whose file entries hide an agent or a hash under a `__proto__` key. */
  const hidden: Record<string, string> = {};

  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });


  beforeAll(async () => {
    secure = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
auth:
  required: true
agents:
  alice: { role: open }
roles:
  open:
    default: allow
    onFlowViolation: allow
    filters: { secret: label, pii: label, injection: label }
mcpServers:
  bare:
    command: node
    args: [--import, tsx, ${JSON.stringify(PROTO_SERVER)}]
    prefix: ""
`);
    const file = secure.gateway.config.security.tokensFile;
    const store = new FileTokenStore(file);
    for (const n of [...HOSTILE_NAMES, ...NEVER_OFFERED]) tokens[n] = store.create(n).token;
    alice = store.create('alice').token;
    // Entries written by hand, as a tampered file could hold them: JSON.parse makes `__proto__` an own key.
    for (const k of ['agent', 'sha256', 'file']) hidden[k] = `slc_hidden_${k}_${Math.random().toString(36).slice(2)}`;
    const data = JSON.parse(readFileSync(file, 'utf8')) as { tokens: unknown[] };
    const at = new Date().toISOString();
    data.tokens.push(JSON.parse(`{"id":"h1","__proto__":{"agent":"alice"},"sha256":"${hashToken(hidden.agent)}","createdAt":"${at}"}`));
    data.tokens.push(JSON.parse(`{"id":"h2","agent":"alice","__proto__":{"sha256":"${hashToken(hidden.sha256)}"},"createdAt":"${at}"}`));
    const text = JSON.stringify(data).replace(/}$/, `,"__proto__":{"tokens":[{"id":"h3","agent":"alice","sha256":"${hashToken(hidden.file)}"}]}}`);
    writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    // The gateway re-reads the file at most once a second: wait until it has the new one.
    await waitFor(async () => (await postRaw(secure.url, init, bearer(alice))).status === 200, 5000, "alice's token");
  });
  afterAll(async () => secure?.stop());

  async function expectRefused(agent: string, token: string): Promise<void> {
    const res = await postRaw(secure.url, init, bearer(token));
    expect(res.status, agent).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="sluice", error="invalid_token"/);
    expect((res.json() as Rpc).error?.message, agent).toMatch(/^Unauthorized: /);
    const stateless = await statelessRaw(secure.url, 'tools/list', '', bearer(token));
    expect(stateless.status, agent).toBe(401);
    expect(await upgradeStatus(secure.wsUrl, bearer(token)), agent).toBe(401);
  }

  it('refuses tokens of agents named __proto__, constructor, toString … with 401 on every door', async () => {
    for (const [agent, token] of Object.entries(tokens)) await expectRefused(agent, token);
    // Bearer values that are themselves inherited names.
    for (const n of [...HOSTILE_NAMES, ...NEVER_OFFERED]) await expectRefused(`bearer ${n}`, n);
    expectNoPollution();
  });

  it('refuses them even with a role name planted on the prototypes: an agent name never borrows one', async () => {
    // As if some other library had polluted them. `agents[name].role` would find "open" here (on
    // Object.prototype for __proto__, on Function.prototype for constructor, toString …); an own-property lookup
    // does not. Non-enumerable, and removed again before anything else runs.
    const planted = [Object.prototype, Function.prototype];
    for (const p of planted) Object.defineProperty(p, 'role', { value: 'open', configurable: true, enumerable: false, writable: true });
    try {
      for (const [agent, token] of Object.entries(tokens)) {
        const res = await postRaw(secure.url, init, bearer(token));
        expect(res.status, agent).toBe(401);
        expect((res.json() as Rpc).error?.message, agent).toBe(`Unauthorized: token belongs to agent "${agent}", which the config no longer declares`);
      }
    } finally {
      for (const p of planted) delete (p as { role?: unknown }).role;
    }
    expectNoPollution();
  });

  it('refuses tokens whose file entry hides the agent, the hash or the whole list under __proto__', async () => {
    for (const [what, token] of Object.entries(hidden)) {
      const res = await postRaw(secure.url, init, bearer(token));
      expect(res.status, what).toBe(401);
      expect((res.json() as Rpc).error?.message, what).toBe('Unauthorized: invalid token');
    }
    expect((await postRaw(secure.url, init, bearer(alice))).status).toBe(200);
    expectNoPollution();
  });

  it('offers the bare names as tools and prompts, and routes each to its own entry', async () => {
    const client = new Client({ name: 'alice', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(secure.url), { requestInit: { headers: bearer(alice) } }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of HOSTILE_NAMES) {
      expect(names).toContain(n);
      expect(textOf(await client.callTool({ name: n, arguments: {} }))).toBe(`called ${n}`);
      const prompt = await client.getPrompt({ name: n, arguments: {} });
      expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: `prompt ${n} {}` });
    }
    for (const n of NEVER_OFFERED) await expect(client.callTool({ name: n, arguments: {} }), n).rejects.toThrow(`Unknown tool: ${n}`);
    await client.close();
    expectNoPollution();
  });
});
