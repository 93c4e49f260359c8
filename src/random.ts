import { randomFillSync } from 'node:crypto';

// Random bytes drawn from the CSPRNG a few KB at a time (as crypto.randomUUID does): one call per id into
// OpenSSL costs more than the rest of building a trace or session id.
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** `bytes` cryptographically random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  if (bytes > pool.length) throw new RangeError(`randomHex: at most ${pool.length} bytes`);
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  // Used bytes are overwritten, so no id can be read back from the pool.
  pool.fill(0, offset, offset + bytes);
  offset += bytes;
  return hex;
}
