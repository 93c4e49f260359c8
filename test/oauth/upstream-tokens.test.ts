import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { oauthGatewayYaml, startIdentityProvider, type IdentityProvider } from '../helpers/oidc.js';
import { startRecordingUpstream, type RecordingUpstream } from '../helpers/recording-upstream.js';

/**
 * What upstreams receive when sluice authenticates to them: its own token (client credentials), or the
 * caller's token exchanged for one issued to the upstream (RFC 8693) — never the caller's token itself.
 */
let idp: IdentityProvider;
let gw: TestGateway;
let own: RecordingUpstream;
let exchanged: RecordingUpstream;

beforeAll(async () => {
  idp = await startIdentityProvider();
  [own, exchanged] = await Promise.all([startRecordingUpstream(), startRecordingUpstream()]);
  gw = await startTestGateway(oauthGatewayYaml(idp.issuer, '{ "mcp:read": reader }', `roles:
  reader: { default: allow }
mcpServers:
  own:
    type: http
    url: ${own.url}
    auth:
      clientCredentials: { tokenUrl: ${idp.issuer}/token, clientId: gateway, clientSecret: gateway-secret, scope: "mcp:read", resource: ${own.url} }
  exchanged:
    type: http
    url: ${exchanged.url}
    mode: per-session
    auth:
      tokenExchange: { tokenUrl: ${idp.issuer}/token, clientId: gateway, clientSecret: gateway-secret, resource: ${exchanged.url} }
`));
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await idp?.stop();
  await Promise.all([own?.stop(), exchanged?.stop()]);
});

const bearers = (r: RecordingUpstream) => r.authorizations.filter(Boolean).map((a) => a.replace(/^Bearer /, ''));

describe('credentials sluice gets for its upstreams', () => {
  it('gives a client-credentials upstream sluice\'s own token for that upstream, and an exchange upstream a token per caller', async () => {
    const token = await idp.clientToken({ resource: gw.url, scope: 'mcp:read' });
    const client = new Client({ name: 'caller', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    expect((await client.callTool({ name: 'own__whoami', arguments: {} })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'exchanged__whoami', arguments: {} })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'exchanged__whoami', arguments: {} })).isError).toBeFalsy();

    const ownTokens = new Set(bearers(own));
    expect(ownTokens.size).toBe(1); // fetched once, reused
    const ownClaims = decodeJwt([...ownTokens][0]);
    expect(ownClaims).toMatchObject({ sub: 'gateway', aud: own.url, iss: idp.issuer });

    const exchangedTokens = new Set(bearers(exchanged));
    expect(exchangedTokens.size).toBe(1);
    const claims = decodeJwt([...exchangedTokens][0]);
    expect(claims).toMatchObject({ sub: 'svc', aud: exchanged.url, iss: idp.issuer, act: { sub: 'gateway' } });
    expect(idp.tokenExchanges()).toBe(1); // cached per caller token

    // Neither upstream ever saw the caller's own token.
    expect([...own.authorizations, ...exchanged.authorizations].join('\n')).not.toContain(token);
    await client.close();
  });

  it('refuses a config that exchanges tokens on a shared upstream, or without OAuth callers', () => {
    expect(() => parseConfig(`auth: { oauth: { issuer: "https://idp.example.com", scopes: { a: r } } }\nroles: { r: { default: allow } }\nmcpServers:\n  x:\n    url: https://x.example.com/mcp\n    auth: { tokenExchange: { tokenUrl: "https://idp.example.com/token", clientId: c, clientSecret: s } }\n`, 't.yaml')).toThrow(/token exchange gives each caller its own upstream token: it needs `mode: per-session`/);
    expect(() => parseConfig(`mcpServers:\n  x:\n    url: https://x.example.com/mcp\n    mode: per-session\n    auth: { tokenExchange: { tokenUrl: "https://idp.example.com/token", clientId: c, clientSecret: s } }\n`, 't.yaml')).toThrow(/token exchange needs the callers' OAuth tokens: configure auth.oauth/);
    expect(() => parseConfig(`mcpServers:\n  x:\n    command: node\n    auth: { clientCredentials: { tokenUrl: "https://idp.example.com/token", clientId: c, clientSecret: s } }\n`, 't.yaml')).toThrow(/`auth` applies only to http and sse servers/);
  });
});
