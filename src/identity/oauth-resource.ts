import { createHash } from 'node:crypto';
import type { OAuthConfig } from '../config/schema.js';
import { OAuthVerifier } from './oauth-verifier.js';
import { oauthIdentity, type Principal, type Resolution } from './principal.js';
import { ADMIN, tokenFingerprint } from './tokens.js';

/**
 * sluice as an OAuth 2.1 resource server (the MCP authorization spec): it publishes Protected Resource
 * Metadata (RFC 9728), answers with the challenges clients follow to find the authorization server, and turns
 * a verified access token into a principal — `issuer#subject` is the identity, its scopes pick the role.
 */
export class OAuthResource {
  readonly verifier: OAuthVerifier;
  private base?: string;
  /** Each OAuth identity's latest token (memory only): what token exchange for its upstreams starts from. */
  private readonly latest = new Map<string, string>();

  constructor(private readonly config: OAuthConfig) {
    this.verifier = new OAuthVerifier(config, () => this.resource);
  }

  /** The gateway listens at `url` (its /mcp endpoint): the default audience, until the config names one. */
  listeningAt(url: string): void {
    this.base = url;
  }

  /** The canonical resource URI: what tokens must be issued for (`aud`, RFC 8707). */
  get resource(): string {
    return this.config.audience ?? this.base ?? 'http://127.0.0.1/mcp';
  }

  /** Where the metadata for this resource is (RFC 9728 §3.1: the well-known part goes before the path). */
  get metadataUrl(): string {
    const u = new URL(this.resource);
    return `${u.origin}/.well-known/oauth-protected-resource${u.pathname.replace(/\/$/, '')}`;
  }

  /** The Protected Resource Metadata document. */
  metadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.config.issuer],
      scopes_supported: this.config.scopes.map(([scope]) => scope),
      bearer_methods_supported: ['header'],
      resource_name: 'sluice MCP gateway',
    };
  }

  /** The WWW-Authenticate value for a refusal: where the metadata is, the scopes to ask for, and the error. */
  challenge(who: Extract<Resolution, { ok: false }>): string {
    const scope = this.config.scopes.map(([s]) => s).join(' ');
    const parts = [`resource_metadata="${this.metadataUrl}"`, `scope="${scope}"`];
    if (who.status === 403) parts.unshift('error="insufficient_scope"');
    else if (who.token) parts.unshift('error="invalid_token"');
    if (who.status === 403 || who.token) parts.push(`error_description="${who.reason.replace(/["\\]/g, "'")}"`);
    return `Bearer ${parts.join(', ')}`;
  }

  /** A bearer token that is not a sluice token: verified, then mapped to a principal by its scopes. */
  async resolve(token: string): Promise<Resolution> {
    const result = await this.verifier.verify(token);
    if (!result.ok) return { ok: false, status: 401, reason: result.reason, token: tokenFingerprint(token) };
    const { subject, issuer, scopes } = result.token;
    // The operator's name is sluice's own: no identity provider can hand it out.
    if (subject === ADMIN) return { ok: false, status: 401, reason: 'an OAuth token cannot stand for the operator', token: tokenFingerprint(token) };
    const granted = new Set(scopes);
    const mapped = this.config.scopes.find(([scope]) => granted.has(scope));
    if (!mapped) {
      return { ok: false, status: 403, reason: `the token carries none of the scopes this gateway maps to a role (${this.config.scopes.map(([s]) => s).join(', ')})`, token: tokenFingerprint(token) };
    }
    const principal: Principal = { agent: oauthIdentity(issuer, subject), name: subject, role: mapped[1], via: 'oauth', issuer, subjectKey: subjectKey(issuer, subject) };
    if (this.latest.size >= 10_000 && !this.latest.has(principal.subjectKey!)) this.latest.clear();
    this.latest.set(principal.subjectKey!, token);
    return { ok: true, principal };
  }

  /** The newest token the identity behind `subjectKey` presented, for exchanging; undefined when none. */
  callerToken(subjectKey: string): string | undefined {
    return this.latest.get(subjectKey);
  }
}

/** What binds a session to an OAuth identity: its issuer and subject, whichever token they present next. */
function subjectKey(issuer: string, subject: string): string {
  return createHash('sha256').update(`${issuer}\n${subject}`).digest('hex');
}
