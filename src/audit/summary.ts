import { REDACT_ALL } from '../filters/redact.js';
import { scanPayload, type PayloadOptions } from '../filters/scan.js';
import { canonicalJson } from '../canonical-json.js';
import { sha256 } from './chain.js';

/**
 * What the audit log keeps of arguments or a result: redacted (secrets and personal data never reach the
 * log), capped at `maxBytes` with a note of what was cut, and a hash of the full redacted content so a
 * complete copy can still be matched against the record. `binary: 'scan'` for arguments: what a client sent as
 * an image's data is scanned too (see PayloadOptions).
 */
export function summarise(value: unknown, maxBytes: number, alreadyClean = false, binary: PayloadOptions['binary'] = 'skip'): { text: string; hash: string } | undefined {
  if (value === undefined) return undefined;
  try {
    return summariseValue(value, maxBytes, alreadyClean, binary);
  } catch (err) {
    // Nesting too deep for the stack, a cycle a hook made: the record is still written, with what it could not hold.
    const reason = err instanceof RangeError ? 'nested too deeply (or cyclic) to serialise' : `could not be serialised: ${(err as Error).message}`;
    const text = `[not recorded: the value ${reason}]`;
    return { text, hash: sha256(text) };
  }
}

function summariseValue(value: unknown, maxBytes: number, alreadyClean: boolean, binary: PayloadOptions['binary']): { text: string; hash: string } {
  // `alreadyClean`: the chokepoint scanned this very value with every filter on and found nothing.
  const redacted = !alreadyClean && value !== null && typeof value === 'object' ? scanPayload(value as Record<string, unknown>, REDACT_ALL, { binary }).value : value;
  const full = canonicalJson(redacted);
  const hash = sha256(full);
  if (Buffer.byteLength(full) <= maxBytes) return { text: full, hash };
  const cut = Buffer.from(full).subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
  return { text: `${cut}… [truncated: ${Buffer.byteLength(full)} bytes in all]`, hash };
}
