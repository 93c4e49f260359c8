/**
 * A name or URI from a client, made safe to print and to record: control, format (bidi, zero-width) and
 * other invisible characters become `\u{…}` escapes, and it is cut at 256 characters — so a look-alike name
 * shows what it really is, and a huge one cannot bloat the log.
 */
export function printable(text: string, max = 256): string {
  // The common case, a plain ASCII name, is returned as it is (this runs on every recorded decision).
  if (text.length <= max && /^[\x21-\x7e]*$/.test(text)) return text;
  const cut = [...text];
  const shown = cut
    .slice(0, max)
    .map((c) => (/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(c) || (c !== ' ' && /\p{Zs}/u.test(c)) ? `\\u{${c.codePointAt(0)!.toString(16)}}` : c))
    .join('');
  return cut.length > max ? `${shown}… (${cut.length} characters)` : shown;
}
