/**
 * A gateway that needs tokens, in front of the fixture with no prefix: tokens of agents named __proto__,
 * constructor … and token-file entries that hide fields under __proto__ are refused; the bare names are routed as
 * data (see test/helpers/prototype-gateway.ts).
 */
import { renameSync, readFileSync, writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore, hashToken } from '../../src/identity/tokens.js';
import { HOSTILE_NAMES, NEVER_OFFERED } from '../fixtures/prototype-names.js';
import { postRaw } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { PROTO_SERVER, expectNoPollution, statelessRaw, type Rpc } from '../helpers/prototype-gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { waitFor } from '../helpers/wait.js';
import { upgradeStatus } from '../helpers/ws-client.js';

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
