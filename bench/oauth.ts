/**
 * What authentication costs per request, in process: a sluice token (hash, map lookup), an OAuth access token
 * seen before (the verified-token cache), and one seen for the first time (a JWT signature check against the
 * cached JWKS). The tokens come from a real authorization server (oidc-provider on loopback).
 *
 *   node --import tsx bench/oauth.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importJWK, SignJWT } from 'jose';
import { startIdentityProvider } from '../test/helpers/oidc.js';
import { FileTokenStore, OAuthResource, parseConfig, resolveBearer } from './sluice-internals.js';

export interface AuthFigure {
  what: string;
  calls: number;
  usPerCall: number;
}

const RESOURCE = 'http://127.0.0.1:8808/mcp';

async function time(what: string, calls: number, once: (i: number) => Promise<unknown>): Promise<AuthFigure> {
  for (let i = 0; i < Math.min(calls, 200); i++) await once(i); // JIT and caches first
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await once(i);
  return { what, calls, usPerCall: Number(process.hrtime.bigint() - started) / 1000 / calls };
}

export async function measureAuth(calls = 20_000): Promise<AuthFigure[]> {
  const idp = await startIdentityProvider();
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-auth-bench-'));
  try {
    const config = parseConfig(
      `dataDir: ${JSON.stringify(dir)}\nauth:\n  oauth:\n    issuer: ${idp.issuer}\n    audience: ${RESOURCE}\n    scopes: { "mcp:read": bench }\nagents:\n  bench: { role: bench }\nroles:\n  bench: { default: allow }\nmcpServers: {}\n`,
      'bench.yaml',
      {},
    );
    const oauth = new OAuthResource(config.security.oauth!);
    const tokens = new FileTokenStore(config.security.tokensFile);
    const sluiceToken = `Bearer ${tokens.create('bench').token}`;
    const issued = await idp.clientToken({ resource: RESOURCE, scope: 'mcp:read' });
    const must = async (p: Promise<{ ok: boolean }>) => {
      if (!(await p).ok) throw new Error('a bench token was refused');
    };
    // Fresh tokens, signed in advance with the IdP's own key: each is verified once, past the cache.
    const key = await importJWK(idp.keys[0].privateJwk, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const fresh = Math.min(calls, 2000);
    const unseen = await Promise.all(
      Array.from({ length: fresh + 200 }, (_, i) =>
        new SignJWT({ iss: idp.issuer, aud: RESOURCE, sub: `user-${i}`, scope: 'mcp:read', iat: now, exp: now + 3600 }).setProtectedHeader({ alg: 'RS256', kid: idp.keys[0].kid, typ: 'at+jwt' }).sign(key),
      ),
    );
    return [
      await time('sluice token', calls, () => must(resolveBearer(sluiceToken, config.security, tokens))),
      await time('OAuth JWT, verified before (cached)', calls, () => must(oauth.resolve(issued))),
      await time('OAuth JWT, first sight (RS256 signature check)', fresh, (i) => must(oauth.resolve(unseen[i]))),
    ];
  } finally {
    await idp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureAuth(Number(process.env.BENCH_AUTH_CALLS ?? 20_000));
  console.log('| token | calls | µs per request |');
  console.log('| --- | ---: | ---: |');
  for (const f of figures) console.log(`| ${f.what} | ${f.calls} | ${f.usPerCall.toFixed(1)} |`);
  process.exit(0);
}
