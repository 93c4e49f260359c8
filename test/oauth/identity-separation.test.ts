import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startIdentityProvider, type IdentityProvider } from '../helpers/oidc.js';
import { postRaw } from '../helpers/clients.js';
import { textOf } from '../helpers/secure-gateway.js';
import { EVERYTHING } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

/**
 * An identity is its name *and* where it came from. The operator declared a static agent `alice`; the
 * authorization server (a real oidc-provider on loopback) vouches for a subject `alice` too. They are two
 * actors: neither may use the other's approval grants, inherit the other's taint, spend the other's rate
 * budget, or be confused with the other in the audit log.
 */
let idp: IdentityProvider;
let gw: TestGateway;
let staticAlice: string;
let admin: string;

beforeAll(async () => {
  idp = await startIdentityProvider();
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-identity-sep-'));
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(dir, 'data'))}
auth:
  oauth:
    issuer: ${idp.issuer}
    scopes: { "mcp:write": dev }
agents:
  alice: { role: dev }
roles:
  dev:
    default: deny
    tools:
      "everything__echo": allow
      "everything__get-sum": allow
      "everything__get-tiny-image": approve
      "vault__get-sum": allow
      "everything__trigger-sampling-request": allow
    rateLimit: { perSecond: 0.001, burst: 100, tools: { "everything__get-sum": { perSecond: 0.001, burst: 2 } } }
approvals:
  timeoutSeconds: 5
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
    tools: { echo: { openWorld: true } }
  vault:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
    label: { confidentiality: internal }
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  staticAlice = store.create('alice').token;
  admin = store.create('admin:operator').token;
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await idp?.stop();
});

/** An access token for subject `sub`, signed with the IdP's own published key (its JWKS verifies it). */
async function oauthToken(sub: string): Promise<string> {
  const key = idp.keys[0];
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'mcp:write' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
    .setIssuer(idp.issuer)
    .setAudience(gw.url)
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(await importJWK(key.privateJwk, 'RS256'));
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'identity-separation', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const adminCall = async (method: 'GET' | 'POST', p: string, body?: unknown) => {
  const res = await fetch(gw.url.replace('/mcp', p), { method, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json());
};

async function pendingFor(tool: string): Promise<{ id: string; agent: string }> {
  let found: { id: string; agent: string } | undefined;
  await waitFor(async () => {
    found = (await adminCall('GET', '/admin/approvals')).pending.find((x: { tool: string }) => x.tool === tool);
    return found !== undefined;
  }, 5000, `a pending approval for ${tool}`);
  return found!;
}

const sum = (c: Client) => c.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } });
const image = (c: Client) => c.callTool({ name: 'everything__get-tiny-image', arguments: {} });

describe('an OAuth subject named like a static agent', () => {
  it('gets an identity of its own that names its issuer, and the static agent keeps its plain name', async () => {
    const oauth = await connect(await oauthToken('alice'));
    const mine = await connect(staticAlice);
    const status = await adminCall('GET', '/admin/status');
    const agents = status.sessions.map((s: { agent: string }) => s.agent).sort();
    expect(agents).toEqual(['alice', `${idp.issuer}#alice`]);
    await Promise.all([oauth.close(), mine.close()]);
  });

  it('does not inherit the static agent\'s "always" grant, nor hand its own to it', async () => {
    const mine = await connect(staticAlice);
    const granted = image(mine);
    const asked = await pendingFor('everything__get-tiny-image');
    expect(asked.agent).toBe('alice');
    await adminCall('POST', '/admin/approvals/decide', { id: asked.id, decision: 'approve', scope: 'always' });
    expect((await granted).isError).toBeFalsy();
    expect((await image(mine)).isError).toBeFalsy(); // the grant holds for the static agent

    // The OAuth subject of the same name is asked for itself: the static agent's grant is not its grant.
    const oauth = await connect(await oauthToken('alice'));
    const call = image(oauth);
    const its = await pendingFor('everything__get-tiny-image');
    expect(its.agent).toBe(`${idp.issuer}#alice`);
    await adminCall('POST', '/admin/approvals/decide', { id: its.id, decision: 'deny', reason: 'not this one' });
    expect(textOf(await call)).toMatch(/approval denied: not this one/);
    await Promise.all([oauth.close(), mine.close()]);
  });

  it('cannot have its parked stateless call resumed by the static agent', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
    const call = (token: string, extra: Record<string, unknown> = {}) =>
      postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'everything__trigger-sampling-request', arguments: { prompt: 'whose question?', maxTokens: 5 }, _meta: meta, ...extra } }), {
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
      });
    const oauth = await oauthToken('alice');
    const parked = (await call(oauth)).json() as { result: { resultType: string; requestState: string; inputRequests: Record<string, unknown> } };
    expect(parked.result.resultType).toBe('input_required');
    const [key] = Object.keys(parked.result.inputRequests);
    const answers = { [key]: { role: 'assistant', content: { type: 'text', text: 'static alice answers' }, model: 'm', stopReason: 'endTurn' } };
    const stolen = (await call(staticAlice, { requestState: parked.result.requestState, inputResponses: answers })).json() as { error?: { message: string } };
    expect(stolen.error?.message).toMatch(/Unknown or expired requestState/);
    // Its own identity still resumes it.
    const own = (await call(oauth, { requestState: parked.result.requestState, inputResponses: answers })).json() as { result?: { content: unknown } };
    expect(JSON.stringify(own.result?.content)).toContain('static alice answers');
  });

  it('does not taint the static agent with what it read, nor pass its taint on', async () => {
    const oauth = await connect(await oauthToken('alice'));
    expect((await oauth.callTool({ name: 'vault__get-sum', arguments: { a: 1, b: 2 } })).isError).toBeFalsy();
    // echo is open-world here: from now on the OAuth identity may not send anything out...
    const held = await oauth.callTool({ name: 'everything__echo', arguments: { message: 'hello' } });
    expect(textOf(held)).toMatch(/information-flow step: the session holds internal data/);
    // ...and a fresh session of that identity starts at its mark...
    const again = await connect(await oauthToken('alice'));
    expect(textOf(await again.callTool({ name: 'everything__echo', arguments: { message: 'hello' } }))).toMatch(/information-flow step/);
    // ...but the static agent `alice` read nothing and is clean.
    const mine = await connect(staticAlice);
    expect(textOf(await mine.callTool({ name: 'everything__echo', arguments: { message: 'hello' } }))).toBe('Echo: hello');
    const marks = (await adminCall('GET', '/admin/status')).identities;
    expect(marks[`${idp.issuer}#alice`]).toMatch(/internal/);
    expect(marks.alice ?? 'trusted/public').not.toMatch(/internal/);
    await Promise.all([oauth.close(), again.close(), mine.close()]);
  });

  it('spends its own rate budget, not the static agent\'s', async () => {
    const oauth = await connect(await oauthToken('alice'));
    for (let i = 0; i < 2; i++) expect((await sum(oauth)).isError).toBeFalsy();
    expect(textOf(await sum(oauth))).toMatch(/rate-limit step: rate limit for everything__get-sum exceeded/);
    const mine = await connect(staticAlice);
    expect((await sum(mine)).isError).toBeFalsy();
    // Nor does a subject whose name spells out another identity's per-tool bucket share that bucket.
    const bob = await connect(await oauthToken('bob'));
    for (let i = 0; i < 2; i++) expect((await sum(bob)).isError).toBeFalsy();
    expect(textOf(await sum(bob))).toMatch(/rate-limit step/);
    const spelled = await connect(await oauthToken('bob:tool:everything__get-sum'));
    expect((await sum(spelled)).isError).toBeFalsy();
    await Promise.all([oauth.close(), mine.close(), spelled.close(), bob.close()]);
  });

  it('is told apart from the static agent in the audit log', async () => {
    await waitFor(async () => (await adminCall('GET', `/admin/audit?agent=${encodeURIComponent(`${idp.issuer}#alice`)}&limit=1000`)).records.length > 0, 5000, 'audit records of the OAuth identity');
    const theirs = (await adminCall('GET', `/admin/audit?agent=${encodeURIComponent(`${idp.issuer}#alice`)}&limit=1000`)).records;
    const ours = (await adminCall('GET', '/admin/audit?agent=alice&limit=1000')).records;
    // The static agent's record holds only its own calls: the granted images and the one clean echo, no rate refusal.
    expect(ours.filter((r: { outcome: string }) => r.outcome === 'deny')).toEqual([]);
    expect(ours.some((r: { target: string }) => r.target === 'everything__get-tiny-image')).toBe(true);
    const denied = theirs.filter((r: { outcome: string }) => r.outcome === 'deny').map((r: { target: string }) => r.target);
    expect(denied).toEqual(expect.arrayContaining(['everything__get-tiny-image', 'everything__echo', 'everything__get-sum']));
  });
});

describe('identity keys cannot be forged', () => {
  it('refuses an OAuth issuer with a fragment or query, so the separator stays unambiguous', async () => {
    const { parseConfig } = await import('../../src/config/load.js');
    const yaml = (issuer: string) => `auth:\n  oauth:\n    issuer: ${JSON.stringify(issuer)}\n    scopes: { "mcp:write": dev }\nroles:\n  dev: {}\nmcpServers: {}\n`;
    expect(() => parseConfig(yaml('https://idp.example.com/#x'), 't.yaml')).toThrow(/issuer/);
    expect(() => parseConfig(yaml('https://idp.example.com/?tenant=a'), 't.yaml')).toThrow(/issuer/);
    expect(() => parseConfig(yaml('https://idp.example.com/tenant'), 't.yaml')).not.toThrow();
  });

  it('refuses a static agent name that could spell an OAuth identity', async () => {
    const { parseConfig } = await import('../../src/config/load.js');
    expect(() => parseConfig(`agents:\n  "https://idp.example.com#alice": { role: dev }\nroles:\n  dev: {}\nmcpServers: {}\n`, 't.yaml')).toThrow(/agent names/);
  });
});
