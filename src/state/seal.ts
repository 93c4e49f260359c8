import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomHex } from '../random.js';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeOnce } from '../write-once.js';

/**
 * Sealed tokens: what a client carries back to us (a stateless call's `requestState`) as
 * `base64url(json).base64url(hmac)`. Any instance with the key can check that we made it, that it is unchanged
 * and that it has not expired; the client can read nothing it could use and forge nothing.
 */
export function seal(payload: Record<string, unknown>, key: Buffer, ttlMs: number): string {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: Date.now() + ttlMs })).toString('base64url');
  return `${body}.${mac(body, key)}`;
}

/** The payload of a token we sealed and that has not expired; undefined for anything else. */
export function unseal(token: string, key: Buffer): Record<string, unknown> | undefined {
  if (typeof token !== 'string' || token.length > 4096) return undefined;
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = Buffer.from(mac(body, key), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const exp = (payload as { exp?: unknown }).exp;
  return typeof exp === 'number' && exp > Date.now() ? (payload as Record<string, unknown>) : undefined;
}

/**
 * A legacy session id: 128 random bits and a MAC over them (`<32 hex>.<22 base64url>`). Any replica with the
 * key tells an id we issued from a guessed or forged one before it looks anything up.
 */
export function newSessionId(key: Buffer): string {
  const random = randomHex(16);
  return `${random}.${sessionMac(random, key)}`;
}

/** Whether `id` is one that `newSessionId` made with this key. */
export function isSessionId(id: string, key: Buffer): boolean {
  const m = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{22})$/.exec(id);
  if (!m) return false;
  const given = Buffer.from(m[2]);
  const expected = Buffer.from(sessionMac(m[1], key));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// Its own label in the MAC: a session id can never pass for a sealed token, nor the other way round.
const sessionMac = (random: string, key: Buffer) => mac(`sluice-session-id:${random}`, key).slice(0, 22);

function mac(body: string, key: Buffer): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

/**
 * The sealing key: `SLUICE_SESSION_KEY` (64 hex characters, the same on every replica) when set, else a key
 * made once in the data dir (0600), so a restart can still open what the previous process sealed.
 */
export function loadSealKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const given = env.SLUICE_SESSION_KEY;
  if (given !== undefined && given !== '') {
    if (!/^[0-9a-fA-F]{64}$/.test(given)) throw new Error('SLUICE_SESSION_KEY must be 64 hexadecimal characters (32 bytes)');
    return Buffer.from(given, 'hex');
  }
  const file = path.join(dataDir, 'session-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeOnce(file, randomBytes(32).toString('hex') + '\n', 0o600); // false: another process made it first
  }
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} does not hold a 64-hex-character key`);
  return Buffer.from(text, 'hex');
}
