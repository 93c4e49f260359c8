import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthConfig } from '../config/schema.js';

/** What a verified access token says: who, from which issuer, with which scopes, until when. */
export interface VerifiedToken {
  issuer: string;
  /** `sub`, or `client_id` for a client-credentials token without one. */
  subject: string;
  scopes: string[];
  /** Epoch ms. */
  expiresAt: number;
}

export type Verification = { ok: true; token: VerifiedToken } | { ok: false; reason: string };

/** A verified token is trusted again without a signature check for at most this long (and never past its exp). */
const CACHE_MS = 5 * 60_000;
const CACHE_LIMIT = 10_000;
const DISCOVERY_RETRY_MS = 5_000;
const FETCH_TIMEOUT_MS = 5_000;

/**
 * Checks OAuth access tokens as an RFC 9068 / RFC 8707 resource server: a JWT signed by a key from the
 * issuer's JWKS (found through its metadata), with an allow-listed asymmetric algorithm, this issuer, this
 * gateway as its audience, and a valid time window. jose refetches the JWKS when a token names a key id it
 * does not know — at most once per cooldown, so tokens with random key ids cannot make sluice hammer the IdP,
 * while a key the IdP rotated in is picked up without a restart. Verified tokens are cached by their hash.
 */
export class OAuthVerifier {
  private jwks?: ReturnType<typeof createRemoteJWKSet>;
  private metadata?: IssuerMetadata;
  private discovering?: Promise<void>;
  private discoveryFailedAt = -Infinity;
  private readonly cache = new Map<string, VerifiedToken & { until: number }>();

  constructor(
    private readonly config: OAuthConfig,
    /** The canonical resource URI tokens must be issued for. */
    private readonly audience: () => string,
  ) {}

  async verify(token: string): Promise<Verification> {
    const key = createHash('sha256').update(token).digest('hex');
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return { ok: true, token: cached };
    if (cached) this.cache.delete(key);
    const jwt = looksLikeJwt(token);
    if (!jwt && !this.config.introspection) return { ok: false, reason: 'not a JWT access token from the configured issuer' };
    try {
      const verified = jwt ? await this.verifyJwt(token) : await this.introspect(token);
      if (!verified.ok) return verified;
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(key, { ...verified.token, until: Math.min(verified.token.expiresAt, now + CACHE_MS) });
      return verified;
    } catch (err) {
      return { ok: false, reason: reasonOf(err) };
    }
  }

  private async verifyJwt(token: string): Promise<Verification> {
    const { payload } = await jwtVerify(token, await this.keys(), {
      issuer: this.config.issuer,
      audience: this.audience(),
      algorithms: this.config.algorithms,
      clockTolerance: this.config.clockSkewSeconds,
      requiredClaims: ['exp'],
    });
    const verified = tokenOf(payload, this.config.issuer);
    return verified ? { ok: true, token: verified } : { ok: false, reason: 'the token names no subject (sub or client_id)' };
  }

  /**
   * An opaque token, asked about at the introspection endpoint (RFC 7662) with sluice's own client
   * credentials. Active, for this very resource, from this issuer, and not expired — else refused.
   */
  private async introspect(token: string): Promise<Verification> {
    const settings = this.config.introspection!;
    const url = settings.url ?? (await this.issuerMetadata()).introspectionEndpoint;
    if (!url) throw new Error('the issuer\'s metadata names no introspection_endpoint (set auth.oauth.introspection.url)');
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      redirect: 'error',
    });
    if (!res.ok) throw new Error(`the introspection endpoint answered ${res.status}`);
    const info = (await res.json()) as JWTPayload & { active?: unknown };
    if (info.active !== true) return { ok: false, reason: 'the authorization server says the token is not active' };
    if (info.iss !== undefined && info.iss !== this.config.issuer) return { ok: false, reason: 'the token comes from another issuer' };
    const audiences = Array.isArray(info.aud) ? info.aud : info.aud === undefined ? [] : [info.aud];
    if (!audiences.includes(this.audience())) return { ok: false, reason: 'the token was issued for another resource (aud)' };
    const skew = this.config.clockSkewSeconds * 1000;
    if (typeof info.exp !== 'number' || info.exp * 1000 + skew <= Date.now()) return { ok: false, reason: 'the token has expired' };
    if (typeof info.nbf === 'number' && info.nbf * 1000 - skew > Date.now()) return { ok: false, reason: 'the token is not valid yet (nbf)' };
    const verified = tokenOf(info, this.config.issuer);
    return verified ? { ok: true, token: verified } : { ok: false, reason: 'the token names no subject (sub or client_id)' };
  }

  /** The issuer's key set, found once through its metadata; a failed discovery is retried after a pause. */
  private async keys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.jwks) return this.jwks;
    if (!this.discovering) {
      if (Date.now() - this.discoveryFailedAt < DISCOVERY_RETRY_MS) throw new Error('the authorization server\'s metadata could not be read (retrying shortly)');
      this.discovering = this.discover().then(
        (uri) => {
          this.jwks = createRemoteJWKSet(new URL(uri), { cooldownDuration: this.config.jwksCooldownMs, timeoutDuration: FETCH_TIMEOUT_MS });
        },
        (err: Error) => {
          this.discoveryFailedAt = Date.now();
          throw err;
        },
      );
      this.discovering.finally(() => (this.discovering = undefined)).catch(() => undefined);
    }
    await this.discovering;
    return this.jwks!;
  }

  private async discover(): Promise<string> {
    return (await this.issuerMetadata()).jwksUri;
  }

  /** OIDC discovery, else RFC 8414 metadata; the document must name this very issuer (no mix-up). Read once. */
  private async issuerMetadata(): Promise<IssuerMetadata> {
    if (this.metadata) return this.metadata;
    for (const url of metadataUrls(this.config.issuer)) {
      const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' }).catch(() => undefined);
      if (!res?.ok) continue;
      const doc = (await res.json().catch(() => undefined)) as { issuer?: unknown; jwks_uri?: unknown; introspection_endpoint?: unknown } | undefined;
      if (doc?.issuer !== this.config.issuer) throw new Error(`the metadata at ${url} names issuer ${JSON.stringify(doc?.issuer)}, not ${this.config.issuer}`);
      if (typeof doc.jwks_uri !== 'string' || !/^https?:\/\//.test(doc.jwks_uri)) throw new Error(`the metadata at ${url} has no jwks_uri`);
      const introspection = typeof doc.introspection_endpoint === 'string' && /^https?:\/\//.test(doc.introspection_endpoint) ? doc.introspection_endpoint : undefined;
      this.metadata = { jwksUri: doc.jwks_uri, introspectionEndpoint: introspection };
      return this.metadata;
    }
    throw new Error(`no authorization server metadata at ${metadataUrls(this.config.issuer).join(' or ')}`);
  }
}

interface IssuerMetadata {
  jwksUri: string;
  introspectionEndpoint?: string;
}

/** Where an issuer's metadata lives: OIDC discovery appends; RFC 8414 inserts the well-known part before the path. */
export function metadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  return [`${u.origin}${path}/.well-known/openid-configuration`, `${u.origin}/.well-known/oauth-authorization-server${path}`];
}

const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token) && token.length <= 16_384;

function tokenOf(payload: JWTPayload, issuer: string): VerifiedToken | undefined {
  const clientId = (payload as { client_id?: unknown }).client_id;
  const subject = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : typeof clientId === 'string' && clientId !== '' ? clientId : undefined;
  if (!subject) return undefined;
  return { issuer, subject, scopes: scopesOf(payload), expiresAt: (payload.exp ?? 0) * 1000 };
}

/** RFC 9068 `scope` (space-separated), or the `scp` array some IdPs send. */
function scopesOf(payload: JWTPayload): string[] {
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** What went wrong, in words for the client and the audit log (never the token). */
function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'the token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return 'the token was issued for another resource (aud)';
    if (err.claim === 'iss') return 'the token comes from another issuer';
    if (err.claim === 'nbf') return 'the token is not valid yet (nbf)';
    return `the token's "${err.claim}" claim is not acceptable`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm sluice does not accept';
  if (err instanceof errors.JWKSNoMatchingKey) return 'the token is signed with a key the issuer does not publish';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'the token\'s signature does not verify';
  if (err instanceof errors.JWTInvalid || err instanceof errors.JWSInvalid || err instanceof errors.JOSENotSupported) return 'the token is not a valid JWT';
  return `the token could not be checked: ${err instanceof Error ? err.message : String(err)}`;
}
