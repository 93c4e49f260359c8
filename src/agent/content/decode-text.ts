import { looksLikeText } from './mime.js';

/** A byte-order mark wins over a declared charset, as browsers do. */
function bom(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/**
 * Decodes bytes declared as text: the BOM's encoding if there is one, else `charset` (any label TextDecoder
 * knows: utf-8, utf-16le/be, latin1 / iso-8859-1 and windows-1252, which WHATWG treats as one, shift_jis, …),
 * else UTF-8. Returns undefined when the bytes are not valid in that encoding, the charset is unknown, or the
 * result still looks binary — the caller then describes the blob instead of showing garbage.
 */
export function decodeText(bytes: Uint8Array, charset?: string): string | undefined {
  const mark = bom(bytes);
  const encoding = mark?.encoding ?? charset ?? 'utf-8';
  let text: string;
  try {
    // ignoreBOM: the mark, when present, is already cut off; a second one is content.
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(mark?.length ?? 0));
  } catch {
    return undefined;
  }
  return looksLikeText(text) ? text : undefined;
}
