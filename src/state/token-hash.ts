import { createHash, randomBytes } from 'node:crypto';

/** What every token store keeps instead of a token: its SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What every sluice token starts with, so a gateway that also takes OAuth tokens knows which rules apply. */
export const SLUICE_TOKEN_PREFIX = 'slc_';

/** A new bearer token (shown once) and its id (for listings). */
export function newToken(): { token: string; id: string } {
  return { token: `${SLUICE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`, id: randomBytes(6).toString('hex') };
}
