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

/** Rarer than this (symbols, capitals, digits, j q x z), a needle's rarest character is worth a test of its own. */
const RARE = 5;

/**
 * The test for one needle: its tail, after a one-character search (the cheapest there is) for its rarest
 * character when that is rare — most text has no `_`, `-` or `J` and is ruled out at once.
 */
function needleTest(needle: string): Probe {
  const tail = probeFor(needle);
  let rarest = needle[0];
  for (const ch of needle) if (frequency(ch) < frequency(rarest)) rarest = ch;
  if (frequency(rarest) >= RARE || tail === rarest) return (text) => text.includes(tail);
  return (text) => text.includes(rarest) && text.includes(tail);
}

export function probe(needles: readonly string[]): Probe {
  const tests = [...new Set(needles)].map(needleTest);
  return tests.length === 1 ? tests[0] : (text) => tests.some((t) => t(text));
}

const DIGITS = '0123456789';

/** Whether the text has a digit: ten memchr scans, several times faster than `/\d/` over long text. */
export function hasDigit(text: string): boolean {
  for (const d of DIGITS) if (text.includes(d)) return true;
  return false;
}
