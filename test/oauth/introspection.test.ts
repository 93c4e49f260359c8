import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { oauthGatewayYaml, READER_ON_EVERYTHING, startIdentityProvider, type IdentityProvider } from '../helpers/oidc.js';

/** Opaque access tokens, checked at the authorization server's introspection endpoint (RFC 7662). */
let idp: IdentityProvider;
let gw: TestGateway;

beforeAll(async () => {
  idp = await startIdentityProvider(['mcp:read', 'mcp:write'], 'opaque');
  gw = await startTestGateway(oauthGatewayYaml(idp.issuer, '{ "mcp:read": reader }', READER_ON_EVERYTHING, ['introspection: { clientId: gateway, clientSecret: gateway-secret }']));
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await idp?.stop();
});

const initialize = (token: string) =>
  postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }), { authorization: `Bearer ${token}` });

describe('opaque tokens', () => {
  it('accepts an active token for this resource, with its scopes, and calls a tool', async () => {
    const token = await idp.clientToken({ resource: gw.url, scope: 'mcp:read' });
    expect(token).not.toContain('.'); // opaque indeed
    const client = new Client({ name: 'opaque', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    expect((await client.callTool({ name: 'everything__echo', arguments: { message: 'opaque' } })).content).toEqual([{ type: 'text', text: 'Echo: opaque' }]);
    await client.close();
  });

  it('refuses one the server does not know, and one issued for another resource', async () => {
    const unknown = await initialize('A'.repeat(43));
    expect(unknown.status).toBe(401);
    expect(unknown.text).toMatch(/not active/);
    const other = await initialize(await idp.clientToken({ resource: 'http://127.0.0.1:9/elsewhere', scope: 'mcp:read' }));
    expect(other.status).toBe(401);
    expect(other.text).toMatch(/another resource/);
  });
});
