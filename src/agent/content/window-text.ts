export interface WindowTextOptions {
  /** Where the rest can be read: named in the note as the read_resource argument. */
  uri: string;
  /** First byte to show, in UTF-8 bytes of the text (read_resource's `offset`); 0 unless told. */
  offset?: number;
  /** Most bytes to show (read_resource's `length`). */
  length?: number;
  /** The configured size cap, in UTF-8 bytes. */
  maxBytes?: number;
}

export interface TextWindow {
  /** The shown text: whole characters only. */
  text: string;
  /** What was cut and how to read the rest; absent when the text is shown whole. */
  note?: string;
  /** Shown byte range [start, end) of totalBytes, in UTF-8. */
  start: number;
  end: number;
  totalBytes: number;
}

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;
const n = (x: number): string => x.toLocaleString('en-US');

/** Characters (code points) that start before `pos`. */
function charsBefore(bytes: Uint8Array, pos: number): number {
  let count = 0;
  for (let i = 0; i < pos; i++) if (!isContinuation(bytes[i])) count++;
  return count;
}

const positiveOrUndefined = (x: number | undefined): number | undefined =>
  x !== undefined && Number.isFinite(x) && x >= 1 ? Math.floor(x) : undefined;

/**
 * The part of `text` that fits `offset` / `length` / the cap, cut at UTF-8 character boundaries, with a note
 * giving exact byte and character counts and the read_resource call that continues. Offsets count UTF-8 bytes
 * of the text as delivered (after charset decoding or PDF extraction), so the same call always reads the same
 * window. With no offset, length or cap, the text comes back whole with no note.
 */
export function windowText(text: string, options: WindowTextOptions): TextWindow {
  const bytes = Buffer.from(text, 'utf8');
  const total = bytes.length;
  const offset = Math.max(0, Math.floor(Number.isFinite(options.offset) ? (options.offset as number) : 0));
  const length = positiveOrUndefined(options.length);
  const cap = positiveOrUndefined(options.maxBytes);
  const limit = Math.min(length ?? Infinity, cap ?? Infinity);

  let start = Math.min(offset, total);
  while (start < total && isContinuation(bytes[start])) start++;
  let end = Math.min(total, start + limit);
  while (end > start && end < total && isContinuation(bytes[end])) end--;
  // A limit smaller than one character still shows that character, so reading on always makes progress.
  if (end === start && start < total) {
    end++;
    while (end < total && isContinuation(bytes[end])) end++;
  }
  const shown = bytes.subarray(start, end).toString('utf8');
  const window = { text: shown, start, end, totalBytes: total };
  if (start === 0 && end === total) return window;

  const totalChars = charsBefore(bytes, total);
  const startChar = charsBefore(bytes, start);
  const endChar = startChar + charsBefore(bytes.subarray(start, end), end - start);
  if (start >= total) {
    return { ...window, note: `[Nothing to show: offset ${n(offset)} is at or past the end. The text has ${n(total)} bytes (${n(totalChars)} characters).]` };
  }
  const range = `bytes ${n(start)}–${n(end)} of ${n(total)} (characters ${n(startChar)}–${n(endChar)} of ${n(totalChars)})`;
  if (end === total) return { ...window, note: `[This shows ${range}: the end of the text.]` };

  const why = length !== undefined && length <= (cap ?? Infinity) ? `"length" was ${n(length)} bytes` : `the size cap is ${n(cap ?? 0)} bytes`;
  const call = JSON.stringify({ uri: options.uri, offset: end });
  return {
    ...window,
    note:
      `[Cut: this shows ${range}, because ${why}. The remaining ${n(total - end)} bytes (${n(totalChars - endChar)} characters) are not shown. ` +
      `To read on, call read_resource with ${call}; "offset" and the optional "length" count UTF-8 bytes of this text.]`,
  };
}
