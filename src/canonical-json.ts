/**
 * Canonical JSON (RFC 8785 for I-JSON values): object keys sorted by UTF-16 code units, no whitespace,
 * `undefined` left out, numbers and strings in ECMAScript's JSON forms — the same value always gives the
 * same bytes, which is what a hash over an audit record or a pinned definition needs. Written as one loop per
 * level without intermediate arrays: every audit record goes through it twice.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += value[i] === undefined ? 'null' : canonicalJson(value[i]);
    }
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  if (flatAndSorted(record)) return JSON.stringify(record);
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(k) + ':' + (v === null || typeof v !== 'object' ? JSON.stringify(v) : canonicalJson(v));
  }
  return out + '}';
}

/**
 * An object whose keys are already in order and whose values are scalars or arrays of scalars: JSON.stringify
 * writes exactly the canonical form of it, in one native pass. Audit records are built in key order for this.
 */
function flatAndSorted(record: Record<string, unknown>): boolean {
  let prev = '';
  for (const k in record) {
    if (!Object.hasOwn(record, k) || k <= prev) return false;
    prev = k;
    const v = record[k];
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return false;
      continue;
    }
    if (!Array.isArray(v)) return false;
    for (const x of v) if (x !== null && typeof x === 'object') return false;
  }
  return true;
}
