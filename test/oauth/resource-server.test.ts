import { createPublicKey, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { postRaw } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { newSigningKey, startIdentityProvider, type IdentityProvider, type SigningKey } from '../helpers/oidc.js';
import { EVERYTHING } from '../helpers/servers.js';
import { upgradeOutcome } from '../helpers/ws-client.js';
import { startRecordingUpstream, type RecordingUpstream } from '../helpers/recording-upstream.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { waitFor } from '../helpers/wait.js';

/**
 * sluice as an OAuth 2.1 resource server in front of a real authorization server (oidc-provider on loopback,
 * resource indicators, JWT access tokens): the metadata and challenges clients follow, scopes to roles, and
 * every way a token can be wrong.
 */
let idp: IdentityProvider;
let gw: TestGateway;
let recorder: RecordingUpstream;
const decisions: DecisionEvent[] = [];
let staticToken: string;
let base: string;

beforeAll(async () => {
  idp = await startIdentityProvider();
  recorder = await startRecordingUpstream();
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-oauth-'));
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(dir, 'data'))}
auth:
  oauth:
    issuer: ${idp.issuer}
    scopes: { "mcp:write": writer, "mcp:read": reader }
    jwksCooldownSeconds: 1
agents:
  alice: { role: writer }
roles:
  reader: { default: deny, tools: { "everything__echo": allow } }
  writer: { default: deny, tools: { "everything__*": allow, "remote__*": allow } }
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  remote:
    type: http
    url: ${recorder.url}
    headers: { Authorization: "Bearer upstream-credential-from-config" }
`);
  gw.gateway.onDecision((e) => decisions.push(e));
  base = gw.url.replace(/\/mcp$/, '');
  staticToken = new FileTokenStore(gw.gateway.config.security.tokensFile).create('alice').token;
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await idp?.stop();
  await recorder?.stop();
});

const sign = async (key: SigningKey, claims: JWTPayload, header: Record<string, unknown> = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt', ...header })
    .sign(await importJWK(key.privateJwk, 'RS256'));

const now = () => Math.floor(Date.now() / 1000);
const claims = (over: JWTPayload = {}): JWTPayload => ({ iss: idp.issuer, aud: gw.url, sub: 'someone', scope: 'mcp:read', iat: now(), exp: now() + 300, ...over });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const initialize = (headers: Record<string, string>) =>
  postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }), headers);

describe('what an OAuth client finds', () => {
  it('serves Protected Resource Metadata (RFC 9728) at both well-known paths', async () => {
    for (const p of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await fetch(`${base}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        resource: gw.url,
        authorization_servers: [idp.issuer],
        scopes_supported: ['mcp:write', 'mcp:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'sluice MCP gateway',
      });
    }
  });

  it('answers 401 with the metadata and scopes to ask for, and names invalid_token when one was sent', async () => {
    const metadata = `${base}/.well-known/oauth-protected-resource/mcp`;
    const none = await initialize({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}", scope="mcp:write mcp:read"`);
    const bad = await initialize({ authorization: 'Bearer not.a.token' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer error="invalid_token", resource_metadata="${metadata}", scope="mcp:write mcp:read", error_description="[^"]+"$`));
    // Only the Authorization header carries a token: one in the query string is no token at all.
    const good = await idp.clientToken({ resource: gw.url, scope: 'mcp:read' });
    const query = await postRaw(`${gw.url}?access_token=${good}`, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    expect(query.status).toBe(401);
    // The WebSocket upgrade keeps the same rules.
    const ws = await upgradeOutcome(gw.wsUrl, {});
    expect(ws).toMatchObject({ opened: false, status: 401 });
    expect(await upgradeOutcome(gw.wsUrl, { headers: { authorization: `Bearer ${good}` } })).toEqual({ opened: true });
  });
});

describe('tokens from the authorization server', () => {
  it('maps scopes to roles in config order, whatever order the token lists them in', async () => {
    const reader = await connect(await idp.clientToken({ resource: gw.url, scope: 'mcp:read', client: 'reader' }));
    expect((await reader.callTool({ name: 'everything__echo', arguments: { message: 'hi' } })).isError).toBeFalsy();
    const refused = await reader.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } });
    expect(refused.isError).toBe(true);
    const both = await connect(await idp.clientToken({ resource: gw.url, scope: 'mcp:read mcp:write' }));
    expect((await both.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })).isError).toBeFalsy();
    // Our own token listing read first still gets the writer role: the operator's order decides.
    const key = idp.keys[0];
    const readFirst = await connect(await sign(key, claims({ scope: 'mcp:read mcp:write' })));
    expect((await readFirst.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })).isError).toBeFalsy();
    await Promise.all([reader.close(), both.close(), readFirst.close()]);
  });

  it('holds the same rules for the stateless revision (2026-07-28): the SDK client in that era calls with its token, and without one gets the challenge', async () => {
    const token = await idp.clientToken({ resource: gw.url, scope: 'mcp:read' });
    const modern = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    expect((await modern.callTool({ name: 'everything__echo', arguments: { message: 'stateless' } })).content).toEqual([{ type: 'text', text: 'Echo: stateless' }]);
    await modern.close();
    const bare = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }), { 'mcp-protocol-version': '2026-07-28' });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
  });

  it('gives a subject named like a static agent the role of its scopes, never the agent\'s', async () => {
    const alice = await connect(await sign(idp.keys[0], claims({ sub: 'alice', scope: 'mcp:read' })));
    expect((await alice.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })).isError).toBe(true);
    await alice.close();
    // The static token of the real alice still works beside OAuth, with her role.
    const real = await connect(staticToken);
    expect((await real.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })).isError).toBeFalsy();
    await real.close();
  });

  it('refuses a token without a mapped scope with 403 insufficient_scope naming every scope at once', async () => {
    const res = await initialize({ authorization: `Bearer ${await sign(idp.keys[0], claims({ scope: 'profile email' }))}` });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", resource_metadata="[^"]+", scope="mcp:write mcp:read", error_description="[^"]+"$/);
  });

  it('never opens the admin API or the console', async () => {
    const token = await idp.clientToken({ resource: gw.url, scope: 'mcp:read mcp:write' });
    expect((await fetch(`${base}/admin/status`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    const login = await fetch(`${base}/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ token }) });
    expect(login.status).toBe(401);
  });

  it('binds a session to its issuer and subject: another subject\'s token gets "not found", the same subject\'s next token carries on', async () => {
    const first = await idp.clientToken({ resource: gw.url, scope: 'mcp:read' });
    const init = await initialize({ authorization: `Bearer ${first}` });
    const id = init.headers.get('mcp-session-id')!;
    const list = (token: string) => postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { authorization: `Bearer ${token}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
    expect((await list(await idp.clientToken({ resource: gw.url, scope: 'mcp:read' }))).status).toBe(200); // svc again, a fresh token
    expect((await list(await idp.clientToken({ resource: gw.url, scope: 'mcp:read', client: 'reader' }))).status).toBe(404);
  });
});

describe('the caller\'s token stays with sluice', () => {
  it('never reaches an upstream: it sees only the credential the config gives it', async () => {
    const token = await idp.clientToken({ resource: gw.url, scope: 'mcp:read mcp:write' });
    const client = await connect(token);
    const result = await client.callTool({ name: 'remote__whoami', arguments: {} });
    expect(result.isError).toBeFalsy(); // (its text echoes the header, which sluice's secret filter redacts)
    expect(recorder.authorizations.length).toBeGreaterThan(0);
    expect(recorder.authorizations.every((a) => a === 'Bearer upstream-credential-from-config')).toBe(true);
    expect(recorder.authorizations.join('\n')).not.toContain(token.slice(0, 40));
    await client.close();
  });
});

describe('tokens that must be refused', () => {
  it('refuses every forgery and every token that is not for this gateway now', async () => {
    const key = idp.keys[0];
    const real = await idp.clientToken({ resource: gw.url, scope: 'mcp:read' });
    const [h, p, s] = real.split('.');
    const publicPem = createPublicKey({ key: key.privateJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
    const hsHeader = b64({ alg: 'HS256', kid: key.kid, typ: 'at+jwt' });
    const hsPayload = b64(claims());
    const cases: [string, string, RegExp][] = [
      ['another resource', await idp.clientToken({ resource: 'http://127.0.0.1:9/elsewhere', scope: 'mcp:read' }), /another resource/],
      ['expired', await sign(key, claims({ iat: now() - 600, exp: now() - 120 })), /expired/],
      ['not yet valid', await sign(key, claims({ nbf: now() + 600 })), /not valid yet/],
      ['another issuer', await sign(key, claims({ iss: 'http://127.0.0.1:1' })), /another issuer/],
      ['alg none', `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims())}.`, /algorithm|not a valid JWT/],
      ['HS256 with the public key as secret', `${hsHeader}.${hsPayload}.${createHmac('sha256', publicPem).update(`${hsHeader}.${hsPayload}`).digest('base64url')}`, /algorithm/],
      ['unknown kid', await sign(await newSigningKey(), claims()), /key the issuer does not publish/],
      ['tampered payload', `${h}.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), scope: 'mcp:write' })}.${s}`, /signature/],
      ['no exp', await sign(key, { iss: idp.issuer, aud: gw.url, sub: 'x', scope: 'mcp:read' }), /exp/],
    ];
    for (const [what, token, reason] of cases) {
      const res = await initialize({ authorization: `Bearer ${token}` });
      expect(res.status, what).toBe(401);
      expect(res.headers.get('www-authenticate'), what).toMatch(/^Bearer error="invalid_token"/);
      expect(res.text, what).toMatch(reason);
    }
    // Every refusal is in the audit log (coalesced per source and second), naming the reason, never the token.
    const refusals = () => decisions.filter((d) => d.method === 'authenticate' && d.outcome === 'deny');
    await waitFor(() => refusals().some((d) => /more refused logins? in 1 s/.test(d.reason ?? '')), 3000, 'the coalesced refusals recorded');
    expect(refusals().some((d) => /distinct tokens?: sha256:/.test(d.client ?? ''))).toBe(true);
    expect(JSON.stringify(decisions)).not.toContain(real);
  });

  it('fetches the JWKS only a handful of times for 200 tokens with random key ids', async () => {
    await new Promise((r) => setTimeout(r, 1100)); // past the cooldown of the previous test's fetch
    const before = idp.jwksFetches();
    const stranger = await newSigningKey();
    const tokens = await Promise.all(Array.from({ length: 200 }, () => sign(stranger, claims(), { kid: randomBytes(8).toString('hex') })));
    for (const t of tokens) expect((await initialize({ authorization: `Bearer ${t}` })).status).toBe(401);
    expect(idp.jwksFetches() - before).toBeLessThanOrEqual(3);
  });

  it('picks up a key the IdP rotated in, without a restart', async () => {
    const next = await newSigningKey();
    await idp.rotate([next]);
    await new Promise((r) => setTimeout(r, 1100)); // the JWKS cooldown
    const token = await idp.clientToken({ resource: gw.url, scope: 'mcp:read' });
    const client = await connect(token);
    expect((await client.callTool({ name: 'everything__echo', arguments: { message: 'rotated' } })).isError).toBeFalsy();
    await client.close();
  });
});
