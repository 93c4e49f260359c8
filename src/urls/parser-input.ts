/**
 * The string a URL parser goes on to read when handed `text`. The WHATWG URL standard (Node's `new URL()` and
 * fetch, browsers; Python's urlsplit does the same) first strips leading and trailing C0 controls and spaces
 * and removes every ASCII tab and newline, wherever it is: `ht\ttp://127.0.0.1/` is `http://127.0.0.1/`. So
 * URLs are looked for and judged in this form. Leading and trailing Unicode white space goes too, which the
 * standard keeps but a tool that trims its input first does not: checking more than a parser reads is safe,
 * checking less is not.
 */
export function parserInput(text: string): string {
  const dropped = TAB_OR_NEWLINE.test(text) ? text.replace(TAB_OR_NEWLINE_ALL, '') : text;
  let start = 0;
  let end = dropped.length;
  // Index loops, not `^[…]+|[…]+$`: that regex is quadratic on a long run of spaces inside the text.
  while (start < end && isEdge(dropped.charCodeAt(start))) start++;
  while (end > start && isEdge(dropped.charCodeAt(end - 1))) end--;
  return start === 0 && end === dropped.length ? dropped : dropped.slice(start, end);
}

/** Whether the parser removes this character from anywhere in a URL. */
export const TAB_OR_NEWLINE = /[\t\n\r]/;
const TAB_OR_NEWLINE_ALL = /[\t\n\r]/g;

/** A C0 control or space (U+0000–U+0020), or other white space that `trim()` removes. */
function isEdge(code: number): boolean {
  return code <= 0x20 || (code > 0x7f && /\s/.test(String.fromCharCode(code)));
}
