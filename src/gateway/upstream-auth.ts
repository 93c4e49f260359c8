import type { ServerConfig } from '../config/schema.js';
import type { OAuthResource } from '../identity/oauth-resource.js';
import type { UpstreamTokens } from '../identity/upstream-tokens.js';
import type { ClientSession } from './session.js';

/**
 * The bearer token an upstream gets, by its `auth` config: sluice's own (client credentials), or — for the
 * session that owns a per-session upstream — its caller's OAuth token exchanged for one issued to this
 * upstream. The caller's own token is never what an upstream receives.
 */
export function upstreamBearer(config: ServerConfig, owner: ClientSession | undefined, tokens: UpstreamTokens, oauth: OAuthResource | undefined): (() => Promise<string>) | undefined {
  if (config.transport === 'stdio' || !config.auth) return undefined;
  const auth = config.auth;
  if ('clientCredentials' in auth) return () => tokens.clientCredentials(auth.clientCredentials);
  const subject = owner?.principal?.subjectKey;
  return async () => {
    const caller = subject === undefined ? undefined : oauth?.callerToken(subject);
    if (!caller) throw new Error(`server "${config.name}" takes exchanged tokens, and this session's caller has no OAuth token to exchange`);
    return tokens.exchange(auth.tokenExchange, caller);
  };
}
