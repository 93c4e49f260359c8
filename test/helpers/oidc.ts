import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createLocalJWKSet, exportJWK, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { EVERYTHING } from './servers.js';
import { freePort } from './spawn.js';

export interface SigningKey {
  kid: string;
  /** The private key as a JWK (what the IdP signs with); tests sign their own tokens with it too. */
  privateJwk: JWK;
}

export interface IdentityProvider {
  issuer: string;
  keys: SigningKey[];
  /** How often the JWKS was fetched. */
  jwksFetches(): number;
  /** How many token exchanges (RFC 8693) it granted. */
  tokenExchanges(): number;
  /** A client-credentials access token for `resource` with `scope`, from the real token endpoint. */
  clientToken(options: { resource: string; scope: string; client?: 'svc' | 'reader' }): Promise<string>;
  /** Restarts the IdP on the same address with new signing keys (a key rotation). */
  rotate(keys: SigningKey[]): Promise<void>;
  stop(): Promise<void>;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** The public half of an RSA private JWK. */
function publicJwk({ kty, n, e, kid, alg }: JWK): JWK {
  return { kty, n, e, kid, alg, use: 'sig' };
}

/** Who logs in during an authorization code flow. */
export const USER = 'user-1';

/**
 * Plays the browser: follows the authorization URL through the IdP's redirects (keeping its cookies) until
 * it is sent to `redirectUri`, and returns the query it brings (code, state, iss).
 */
export async function authorizeInBrowser(authorizationUrl: URL, redirectUri: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl.toString();
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(redirectUri)) return new URL(url).searchParams;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const next = res.headers.get('location');
    if (!next) throw new Error(`the authorization flow stopped at ${url} with ${res.status}: ${(await res.text()).slice(0, 300)}`);
    url = new URL(next, url).toString();
  }
  throw new Error('too many redirects in the authorization flow');
}

/** An RSA signing key with a fresh key id. */
export async function newSigningKey(): Promise<SigningKey> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(6).toString('hex');
  return { kid, privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } };
}

/**
 * A real OAuth 2.1 / OpenID Connect provider (panva's oidc-provider) on loopback: resource indicators, so an
 * access token's `aud` is the resource asked for, issued as a JWT; client credentials for two confidential
 * clients (`svc` may ask for every scope, `reader` only for mcp:read), and `gateway` to introspect with.
 * `format: 'opaque'` issues opaque access tokens instead (checked by introspection).
 */
export async function startIdentityProvider(scopes: string[] = ['mcp:read', 'mcp:write'], format: 'jwt' | 'opaque' = 'jwt'): Promise<IdentityProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  let keys = [await newSigningKey()];
  let fetches = 0;
  let exchanges = 0;
  let server: Server | undefined;
  const start = async () => {
    const provider = new Provider(issuer, {
      clients: [
        { client_id: 'svc', client_secret: 'svc-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: scopes.join(' ') },
        { client_id: 'reader', client_secret: 'reader-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: 'mcp:read' },
        // The gateway's own client: token introspection, its own tokens for upstreams, and token exchange.
        { client_id: 'gateway', client_secret: 'gateway-secret', grant_types: ['client_credentials', TOKEN_EXCHANGE], redirect_uris: [], response_types: [], scope: scopes.join(' ') },
      ],
      jwks: { keys: keys.map((k) => k.privateJwk) as never },
      ttl: { ClientCredentials: 3600, AccessToken: 3600 },
      scopes: ['openid', 'offline_access', ...scopes],
      findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
      // Public clients (an MCP client on someone's laptop) register themselves (RFC 7591) and use PKCE.
      features: {
        registration: { enabled: true },
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        resourceIndicators: {
          enabled: true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({ scope: scopes.join(' '), audience: resource, accessTokenTTL: 3600, accessTokenFormat: format, ...(format === 'jwt' ? { jwt: { sign: { alg: 'RS256' } } } : {}) }),
        },
      },
    } as never);
    // RFC 8693 at the real token endpoint (oidc-provider authenticates the client and parses the request): a
    // token this IdP issued is exchanged for one with the same subject, for the audience asked, acting as the client.
    provider.registerGrantType(
      TOKEN_EXCHANGE,
      async (ctx) => {
        const params = ctx.oidc.params as { subject_token?: string; subject_token_type?: string; resource?: string; audience?: string; scope?: string };
        const verified = await jwtVerify(String(params.subject_token), createLocalJWKSet({ keys: keys.map((k) => publicJwk(k.privateJwk)) }), { issuer }).catch(() => undefined);
        if (!verified || params.subject_token_type !== 'urn:ietf:params:oauth:token-type:access_token') {
          ctx.status = 400;
          ctx.body = { error: 'invalid_grant', error_description: 'the subject token is not one of ours' };
          return;
        }
        exchanges++;
        const client = ctx.oidc.client.clientId;
        const key = keys[0];
        const token = await new SignJWT({ scope: params.scope ?? verified.payload.scope, client_id: client, act: { sub: client } })
          .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
          .setIssuer(issuer)
          .setSubject(String(verified.payload.sub))
          .setAudience(params.resource ?? params.audience ?? issuer)
          .setIssuedAt()
          .setExpirationTime('10m')
          .sign(await importJWK(key.privateJwk, 'RS256'));
        ctx.body = { access_token: token, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 600 };
      },
      ['subject_token', 'subject_token_type', 'requested_token_type', 'resource', 'audience', 'scope'],
      ['resource', 'audience'],
    );
    provider.use(async (ctx, next) => {
      if (ctx.path === '/jwks') fetches++;
      // The user's part of the authorization code flow, scripted: whoever reaches the interaction is `user-1`,
      // and consents to every scope the client asked for, for the resource it named.
      if (/^\/interaction\/[^/]+$/.test(ctx.path)) {
        const details = await provider.interactionDetails(ctx.req, ctx.res);
        const params = details.params as { client_id: string; scope?: string; resource?: string | string[] };
        const grant = new provider.Grant({ accountId: USER, clientId: params.client_id });
        const asked = (params.scope ?? '').split(' ').filter(Boolean);
        // The IdP knows the MCP scopes as its own scopes too (they are in its scopes list): grant them both ways.
        grant.addOIDCScope(asked.join(' ') || 'openid');
        for (const resource of [params.resource ?? []].flat()) grant.addResourceScope(resource, asked.filter((x) => scopes.includes(x)).join(' '));
        const grantId = await grant.save();
        ctx.respond = false;
        await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: USER }, consent: { grantId } }, { mergeWithLastSubmission: false });
        return;
      }
      await next();
    });
    await new Promise<void>((resolve) => {
      server = provider.listen(port, '127.0.0.1', () => resolve());
    });
  };
  const stop = () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await start();
  return {
    issuer,
    get keys() {
      return keys;
    },
    jwksFetches: () => fetches,
    tokenExchanges: () => exchanges,
    clientToken: async ({ resource, scope, client = 'svc' }) => {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client}:${client}-secret`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
      });
      const body = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!body.access_token) throw new Error(`token endpoint: ${res.status} ${body.error}: ${body.error_description}`);
      return body.access_token;
    },
    rotate: async (next) => {
      await stop();
      keys = next;
      await start();
    },
    stop,
  };
}

/** A gateway config taking `issuer`'s tokens (YAML): `scopes` a flow map, `more` extra auth.oauth lines, `rest` roles and servers. */
export function oauthGatewayYaml(issuer: string, scopes: string, rest: string, more: string[] = []): string {
  return ['listen: 127.0.0.1:0', 'logLevel: silent', 'auth:', '  oauth:', `    issuer: ${issuer}`, `    scopes: ${scopes}`, ...more.map((l) => `    ${l}`), rest].join('\n');
}

/** The roles and servers most OAuth tests need: a reader who may echo, on server-everything. */
export const READER_ON_EVERYTHING = `roles:
  reader: { default: deny, tools: { "everything__echo": allow } }
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`;
