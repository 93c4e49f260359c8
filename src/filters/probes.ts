/**
 * Cheap tests that let the detectors skip text with nothing for them (most text, for most detectors).
 *
 * A detector names substrings of which every match contains one (`needs`, `needsWord`). Searching a long text
 * for each costs in proportion to how often the substring's first character occurs in it: the engine finds
 * that character (memchr), then compares the rest. So each substring is searched by its tail from its rarest
 * character on — any part of a substring is in the text when the whole is, so the test stays a necessary
 * condition, and the detector's pattern still decides.
 */

// How common a character is in English text and in tool output, per mille (letters: Lewand's table).
const LOWER: Record<string, number> = {
  a: 82, b: 15, c: 28, d: 43, e: 127, f: 22, g: 20, h: 61, i: 70, j: 2, k: 8, l: 40, m: 24, n: 67, o: 75, p: 19, q: 1, r: 60, s: 63, t: 91, u: 28,
  v: 10, w: 24, x: 2, y: 20, z: 1,
};

function frequency(ch: string): number {
  if (ch === ' ') return 180;
  const lower = LOWER[ch];
  if (lower !== undefined) return lower;
  const upper = LOWER[ch.toLowerCase()];
  if (upper !== undefined) return upper / 10;
  if (ch >= '0' && ch <= '9') return 5;
  return ch === '.' || ch === ',' || ch === '\n' ? 10 : 1;
}

/** A tail shorter than this would match too much text to be a useful test. */
const SHORTEST_TAIL = 4;

/** The part of `needle` to search for: its tail from its rarest character (at least four characters of it). */
export function probeFor(needle: string): string {
  if (needle.length <= SHORTEST_TAIL) return needle;
  let best = 0;
  for (let i = 1; i <= needle.length - SHORTEST_TAIL; i++) if (frequency(needle[i]) < frequency(needle[best])) best = i;
  return needle.slice(best);
}

/** True when the text may hold one of the needles: false means it holds none of them. */
export type Probe = (text: string) => boolean;

export function probe(needles: readonly string[]): Probe {
  const tails = [...new Set(needles.map(probeFor))];
  return tails.length === 1 ? (text) => text.includes(tails[0]) : (text) => tails.some((t) => text.includes(t));
}

const DIGITS = '0123456789';

/** Whether the text has a digit: ten memchr scans, several times faster than `/\d/` over long text. */
export function hasDigit(text: string): boolean {
  for (const d of DIGITS) if (text.includes(d)) return true;
  return false;
}
