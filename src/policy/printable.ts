/**
 * What cannot be shown as itself: controls (terminal escapes, CR), format characters (bidi overrides,
 * zero-width), lone surrogates (no character at all; UTF-8 turns them into U+FFFD), private-use and unassigned
 * code points (noncharacters such as U+FFFF included), line and paragraph separators, and every space but the
 * plain one. With the `u` flag a lone surrogate is one code point of its own (\p{Cs}); a pair is the character
 * it makes.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\P{Zs} ]/gu;
/** The same, but line feeds and tabs stand: text that is meant to have lines (a model's answer, a message). */
const HIDDEN_IN_LINES = /[^\P{Cc}\n\t]|[\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\P{Zs} ]/gu;

const escape = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;
/** The same character as JSON writes it: one `\\uXXXX` per UTF-16 unit (two for a character past U+FFFF). */
const jsonEscape = (c: string) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * A name or URI from a client, made safe to print and to record: every character that `HIDDEN` names becomes
 * a `\u{…}` escape, and it is cut at `max` characters — so a look-alike name shows what it really is, a huge one
 * cannot bloat the log, and what is recorded is valid UTF-8 that a terminal shows as it is.
 */
export function printable(text: string, max = 256): string {
  // The common case, a plain ASCII name, is returned as it is (this runs on every recorded decision).
  if (text.length <= max && /^[\x21-\x7e]*$/.test(text)) return text;
  const cut = [...text];
  const shown = (cut.length > max ? cut.slice(0, max).join('') : text).replace(HIDDEN, escape);
  return cut.length > max ? `${shown}… (${cut.length} characters)` : shown;
}

/**
 * Text from outside — a client, an upstream, a model, a token file — for the operator's terminal: all of it
 * (nothing cut: the operator decides on what is shown), with what `printable` escapes escaped; with `lines`,
 * line feeds and tabs are kept. Anything but a string is shown as String() shows it.
 */
export function forTerminal(text: unknown, lines = false): string {
  const s = typeof text === 'string' ? text : String(text);
  return lines ? s.replace(HIDDEN_IN_LINES, escape) : printable(s, Infinity);
}

/**
 * JSON for a terminal: the same value (parsed back, it is equal), with every character that `forTerminal`
 * escapes written as a JSON escape — JSON.stringify leaves bidi overrides, C1 controls, DEL and separators raw.
 */
export function printableJson(value: unknown, indent?: number): string {
  // Outside strings JSON has only spaces and (indented) line feeds; inside them JSON.stringify escaped the rest of C0.
  return (JSON.stringify(value, null, indent) ?? 'null').replace(HIDDEN_IN_LINES, jsonEscape);
}
