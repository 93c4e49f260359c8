import { createHash } from 'node:crypto';
import type { UpstreamClient } from '../config/schema.js';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
/** A token is renewed this long before it expires, so no request leaves with one about to lapse. */
const EARLY_MS = 30_000;
const CACHE_LIMIT = 10_000;

interface Held {
  token: Promise<string>;
  until: number;
}

/**
 * The tokens sluice gets for its upstreams from an authorization server: its own (client credentials), or a
 * caller's token exchanged for one issued to the upstream (RFC 8693). Each is cached until shortly before it
 * expires — an exchanged one per caller token — and requests for the same one share a single round trip.
 */
export class UpstreamTokens {
  private readonly held = new Map<string, Held>();

  /** sluice's own token for this upstream. */
  clientCredentials(client: UpstreamClient): Promise<string> {
    return this.cached(`cc\n${client.tokenUrl}\n${client.clientId}\n${client.scope ?? ''}\n${client.resource ?? ''}`, () => this.request(client, { grant_type: 'client_credentials' }));
  }

  /** A token for this upstream standing for the caller whose token is `subjectToken`. */
  exchange(client: UpstreamClient & { audience?: string }, subjectToken: string): Promise<string> {
    const key = `te\n${client.tokenUrl}\n${client.clientId}\n${client.resource ?? ''}\n${client.audience ?? ''}\n${createHash('sha256').update(subjectToken).digest('hex')}`;
    return this.cached(key, () =>
      this.request(client, {
        grant_type: TOKEN_EXCHANGE,
        subject_token: subjectToken,
        subject_token_type: ACCESS_TOKEN,
        requested_token_type: ACCESS_TOKEN,
        ...(client.audience ? { audience: client.audience } : {}),
      }),
    );
  }

  private cached(key: string, fetchToken: () => Promise<{ token: string; expiresInMs: number }>): Promise<string> {
    const now = Date.now();
    const held = this.held.get(key);
    if (held && held.until > now) return held.token;
    if (this.held.size >= CACHE_LIMIT) this.held.clear();
    const entry: Held = { token: Promise.resolve(''), until: now + 5_000 }; // a request in flight is shared for its duration
    entry.token = fetchToken().then(
      ({ token, expiresInMs }) => {
        entry.until = Date.now() + Math.max(0, expiresInMs - EARLY_MS);
        return token;
      },
      (err: Error) => {
        this.held.delete(key); // a failure is not remembered: the next request asks again
        throw err;
      },
    );
    this.held.set(key, entry);
    return entry.token;
  }

  private async request(client: UpstreamClient, params: Record<string, string>): Promise<{ token: string; expiresInMs: number }> {
    const body = new URLSearchParams(params);
    if (client.scope) body.set('scope', client.scope);
    if (client.resource) body.set('resource', client.resource);
    const res = await fetch(client.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`,
      },
      body,
      signal: AbortSignal.timeout(10_000),
      redirect: 'error',
    });
    const answer = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown };
    if (!res.ok || typeof answer.access_token !== 'string') {
      throw new Error(`the token endpoint ${client.tokenUrl} refused (${res.status}${typeof answer.error === 'string' ? ` ${answer.error}` : ''}${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''})`);
    }
    const seconds = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 300;
    return { token: answer.access_token, expiresInMs: seconds * 1000 };
  }
}
