/**
 * Puts text in the one form the detectors look at, so that look-alike characters and invisible padding do
 * not carry a secret or an email address past them: invisible characters removed, NFKC (full-width and
 * compatibility forms become plain ones), and common Cyrillic/Greek look-alikes of Latin letters mapped back.
 */

/**
 * Invisible: every code point Unicode says a renderer shows as nothing (Default_Ignorable_Code_Point: zero-width
 * characters, bidi and format controls, Hangul fillers, variation selectors, tag characters…), whatever Unicode
 * version Node ships; a hand-made list always misses some. They go before NFKC, which maps none of the rest to
 * one of them, so that NFKC also composes what one kept apart (`e` + U+034F + U+0301 is `é`).
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

// Letters that render like Latin ones in most fonts (Unicode "confusables", the common subset).
const CONFUSABLES: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y', І: 'I', Ј: 'J', Ѕ: 'S',
  α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};
const CONFUSABLE_RE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'g');

export function normalise(text: string): string {
  // Plain ASCII needs none of the work (NFKC leaves it as it is, and none of it is invisible or a look-alike); most
  // tool output is plain ASCII, and its UTF-8 length, which Node counts in native code, is then its length.
  if (Buffer.byteLength(text, 'utf8') === text.length) return text;
  return text.replace(INVISIBLE, '').normalize('NFKC').replace(CONFUSABLE_RE, (c) => CONFUSABLES[c] ?? c);
}
