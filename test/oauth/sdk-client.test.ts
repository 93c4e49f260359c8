import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { authorizeInBrowser, oauthGatewayYaml, READER_ON_EVERYTHING, startIdentityProvider, USER, type IdentityProvider } from '../helpers/oidc.js';
import type { DecisionEvent } from '../../src/policy/decision.js';

/**
 * The official MCP TypeScript SDK client's own OAuth flow against sluice and a real IdP: it gets a 401, finds
 * the Protected Resource Metadata from the challenge, the authorization server from that, registers itself
 * (RFC 7591), runs the authorization code flow with PKCE for this resource (RFC 8707), and calls a tool.
 */
let idp: IdentityProvider;
let gw: TestGateway;
const REDIRECT = 'http://127.0.0.1:1/callback';
const decisions: DecisionEvent[] = [];

beforeAll(async () => {
  idp = await startIdentityProvider();
  gw = await startTestGateway(oauthGatewayYaml(idp.issuer, '{ "mcp:read": reader }', READER_ON_EVERYTHING));
  gw.gateway.onDecision((e) => decisions.push(e));
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await idp?.stop();
});

/** What a desktop client keeps between runs, in memory; it "opens the browser" by remembering the URL. */
class MemoryProvider implements OAuthClientProvider {
  client?: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  saved?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  verifier = '';
  opened?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return { client_name: 'sdk-oauth-test', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'mcp:read' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: NonNullable<MemoryProvider['client']>) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<MemoryProvider['saved']>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.opened = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('the SDK client\'s OAuth flow', () => {
  it('discovers, registers, authorizes with PKCE for this resource, and calls a tool as the user', async () => {
    const provider = new MemoryProvider();
    const first = new StreamableHTTPClientTransport(new URL(gw.url), { authProvider: provider });
    await expect(new Client({ name: 'sdk', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client).toBeDefined(); // registered itself at the IdP
    const opened = provider.opened!;
    expect(opened.origin).toBe(idp.issuer);
    expect(opened.searchParams.get('code_challenge_method')).toBe('S256');
    expect(opened.searchParams.get('resource')).toBe(gw.url);
    const callback = await authorizeInBrowser(opened, REDIRECT);
    expect(callback.get('iss')).toBe(idp.issuer); // RFC 9207: the IdP says who it is, the SDK checks it
    await first.finishAuth(callback);
    expect(provider.saved?.access_token).toBeDefined();

    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { authProvider: provider }));
    expect((await client.callTool({ name: 'everything__echo', arguments: { message: 'via oauth' } })).content).toEqual([{ type: 'text', text: 'Echo: via oauth' }]);
    // The call was made as the user who logged in at the IdP, with the role their scope maps to.
    expect(decisions.find((d) => d.target === 'everything__echo')).toMatchObject({ agent: `${idp.issuer}#${USER}`, outcome: 'allow' });
    await client.close();
  });
});

describe('mcp-remote, pointed at sluice with no --header', () => {
  it('signs in through the browser flow and serves the desktop client over stdio', async () => {
    const { Client: ClientV1 } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { freePort } = await import('../helpers/spawn.js');
    const { ROOT } = await import('../helpers/servers.js');
    const port = await freePort();
    const configDir = mkdtempSync(path.join(tmpdir(), 'sluice-mcp-remote-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js'), gw.url, String(port), '--host', '127.0.0.1', '--allow-http'],
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: 'none' },
      stderr: 'pipe',
    });
    let said = '';
    const authorizationUrl = new Promise<URL>((resolve) => {
      transport.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const m = /Please authorize this client by visiting:\s+(\S+)/.exec(said);
        if (m) resolve(new URL(m[1]));
      });
    });
    const client = new ClientV1({ name: 'desktop', version: '1' });
    const connected = client.connect(transport);
    const callbackUri = `http://127.0.0.1:${port}/oauth/callback`;
    const params = await authorizeInBrowser(await Promise.race([authorizationUrl, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`mcp-remote said: ${said}`)), 20_000))]), callbackUri);
    // The browser lands on mcp-remote's own callback server, which takes the code from there.
    expect((await fetch(`${callbackUri}?${params}`)).status).toBe(200);
    await connected;
    const result = (await client.callTool({ name: 'everything__echo', arguments: { message: 'from the desktop' } })) as { content: unknown };
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: from the desktop' }]);
    await client.close();
  }, 60_000);
});
