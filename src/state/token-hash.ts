import { createHash, randomBytes } from 'node:crypto';

/** What every token store keeps instead of a token: its SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new bearer token (shown once) and its id (for listings). */
export function newToken(): { token: string; id: string } {
  return { token: `slc_${randomBytes(32).toString('base64url')}`, id: randomBytes(6).toString('hex') };
}
