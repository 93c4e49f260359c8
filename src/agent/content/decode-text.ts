import { looksLikeText } from './mime.js';

/** A byte-order mark wins over a declared charset, as browsers do. */
function bom(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/** WHATWG index-windows-1252 for 0x80–0x9F; every other byte is its own code point. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

// Node 20.18.3+ decodes windows-1252 (and so latin1, iso-8859-1, ascii) as ISO-8859-1, turning 0x80–0x9F into
// control characters (nodejs/node#60888); the table keeps curly quotes and € intact on every Node version.
function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = Array.from(bytes.subarray(i, i + 8192), (b) => (b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] : b));
    out += String.fromCharCode(...chunk);
  }
  return out;
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
    const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
    const body = bytes.subarray(mark?.length ?? 0);
    text = decoder.encoding === 'windows-1252' ? decodeWindows1252(body) : decoder.decode(body);
  } catch {
    return undefined;
  }
  return looksLikeText(text) ? text : undefined;
}
