/**
 * Canonical JSON: object keys sorted, no whitespace, `undefined` left out — the same value always gives the
 * same bytes, which is what a hash over a record needs. (Numbers and strings use JSON's own forms.) Written
 * as one loop per level without intermediate arrays: every audit record goes through it twice.
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
