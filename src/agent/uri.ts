/**
 * URIs as the model writes them against URIs as servers spelled them: the same resource must match however
 * it was quoted, cased or escaped (the classic gotcha: a URL object on one side, a string on the other).
 */
export function normaliseUri(raw: string): string {
  let u = raw.trim().replace(/^[<"'`]+|[>"'`]+$/g, '');
  try {
    u = decodeURI(u);
  } catch {
    // Not valid percent-encoding: compare as written.
  }
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(\/\/([^/?#]*))?(.*)$/.exec(u);
  if (!m) return u;
  const scheme = m[1].toLowerCase();
  const authority = m[3] !== undefined ? `//${m[3].toLowerCase()}` : '';
  let rest = m[4];
  if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
  return `${scheme}:${authority}${rest}`;
}

/** Levenshtein distance, stopping early once it exceeds `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length];
}

/** The few candidates closest to what was asked for, for a helpful "did you mean" — never the whole list. */
export function closestMatches(wanted: string, candidates: readonly string[], n = 3): string[] {
  const w = normaliseUri(wanted);
  const max = Math.max(4, Math.ceil(w.length / 2));
  return candidates
    .map((c) => ({ c, d: distance(w, normaliseUri(c), max) }))
    .filter((x) => x.d <= max)
    .sort((a, b) => a.d - b.d)
    .slice(0, n)
    .map((x) => x.c);
}
