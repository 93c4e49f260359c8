/**
 * Media types: which ones are text, which images a model can view, what a URI's extension suggests, and what
 * a blob's own bytes say it is. Everything here is a plain function over strings and bytes.
 */

export const OCTET_STREAM = 'application/octet-stream';

/** The images vision models accept everywhere; other image formats get a descriptor. */
const VIEWABLE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Text types outside `text/*` and the `+json` / `+xml` / `+yaml` suffixes. */
const TEXT_APPLICATION_TYPES = new Set([
  'application/json', 'application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/json5',
  'application/xml', 'application/yaml', 'application/x-yaml', 'application/toml', 'application/x-toml',
  'application/javascript', 'application/x-javascript', 'application/ecmascript', 'application/typescript',
  'application/x-typescript', 'application/x-sh', 'application/x-shellscript', 'application/sql',
  'application/graphql', 'application/x-www-form-urlencoded', 'application/x-tex', 'application/x-latex',
  'application/rtf', 'application/x-httpd-php', 'application/x-python', 'application/csv',
]);

/** `Text/Plain; charset=UTF-8` → `text/plain`. An absent or empty type stays empty. */
export function baseMime(mime: string | undefined): string {
  const base = (mime ?? '').split(';')[0].trim().toLowerCase();
  // A common misspelling; providers only accept the registered name.
  return base === 'image/jpg' ? 'image/jpeg' : base;
}

export function isTextMime(mime: string | undefined): boolean {
  const base = baseMime(mime);
  return base.startsWith('text/') || /\+(json|xml|yaml|toml)$/.test(base) || TEXT_APPLICATION_TYPES.has(base);
}

/** PNG, JPEG, GIF and WebP only: the formats every vision-capable provider accepts. */
export function isImageMime(mime: string | undefined): boolean {
  return VIEWABLE_IMAGES.has(baseMime(mime));
}

/** The `charset` parameter, lower-cased and unquoted, or undefined. */
export function charsetOf(mime: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(mime ?? '');
  return match ? match[2].toLowerCase() : undefined;
}

const BY_EXTENSION = new Map<string, string>([
  ['txt', 'text/plain'], ['log', 'text/plain'], ['ini', 'text/plain'], ['conf', 'text/plain'],
  ['md', 'text/markdown'], ['markdown', 'text/markdown'], ['html', 'text/html'], ['htm', 'text/html'],
  ['css', 'text/css'], ['csv', 'text/csv'], ['tsv', 'text/tab-separated-values'],
  ['json', 'application/json'], ['jsonl', 'application/x-ndjson'], ['ndjson', 'application/x-ndjson'],
  ['xml', 'application/xml'], ['yaml', 'application/yaml'], ['yml', 'application/yaml'], ['toml', 'application/toml'],
  ['js', 'text/javascript'], ['mjs', 'text/javascript'], ['cjs', 'text/javascript'],
  ['ts', 'text/x-typescript'], ['mts', 'text/x-typescript'], ['cts', 'text/x-typescript'], ['tsx', 'text/x-typescript'],
  ['jsx', 'text/javascript'], ['py', 'text/x-python'], ['rb', 'text/x-ruby'], ['go', 'text/x-go'],
  ['rs', 'text/x-rust'], ['java', 'text/x-java'], ['c', 'text/x-c'], ['h', 'text/x-c'], ['cpp', 'text/x-c++'],
  ['hpp', 'text/x-c++'], ['cs', 'text/x-csharp'], ['sh', 'text/x-shellscript'], ['sql', 'application/sql'],
  ['svg', 'image/svg+xml'], ['png', 'image/png'], ['jpg', 'image/jpeg'], ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'], ['webp', 'image/webp'], ['bmp', 'image/bmp'], ['tif', 'image/tiff'], ['tiff', 'image/tiff'],
  ['ico', 'image/vnd.microsoft.icon'], ['pdf', 'application/pdf'], ['zip', 'application/zip'],
  ['gz', 'application/gzip'], ['tgz', 'application/gzip'], ['tar', 'application/x-tar'],
  ['7z', 'application/x-7z-compressed'], ['mp3', 'audio/mpeg'], ['wav', 'audio/wav'], ['ogg', 'audio/ogg'],
  ['mp4', 'video/mp4'], ['webm', 'video/webm'], ['woff2', 'font/woff2'], ['wasm', 'application/wasm'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
]);

/** A guess from the URI's extension (query and fragment ignored); unknown → application/octet-stream. */
export function mimeFromUri(uri: string): string {
  const path = uri.split(/[?#]/)[0];
  const name = decodeURIComponentSafe(path.slice(path.lastIndexOf('/') + 1));
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return OCTET_STREAM;
  return BY_EXTENSION.get(name.slice(dot + 1).toLowerCase()) ?? OCTET_STREAM;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** The type the bytes' magic number announces (images, PDF, gzip, zip), or undefined. */
export function magicMime(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'application/gzip';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'application/zip';
  // Readers accept the header anywhere in the first kilobyte; only the start counts here, so that a text about
  // PDFs is not taken for one.
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  return undefined;
}

/**
 * What a blob with no usable type is: a PDF by its header; text (with the charset its BOM names) when the bytes
 * read as text; else its magic number's type, or application/octet-stream — never text by default. Text is
 * tried before the other magic numbers because real images and archives never pass as text, while a note that
 * starts with "GIF89a" does.
 */
export function sniffMime(bytes: Uint8Array): string {
  const magic = magicMime(bytes);
  if (magic === 'application/pdf') return magic;
  if (startsWith(bytes, [0xff, 0xfe])) return 'text/plain; charset=utf-16le';
  if (startsWith(bytes, [0xfe, 0xff])) return 'text/plain; charset=utf-16be';
  if (isUtf8Text(bytes)) return 'text/plain; charset=utf-8';
  return magic ?? OCTET_STREAM;
}

/** Valid UTF-8 that reads as text: no NUL, and almost no other control characters. */
export function isUtf8Text(bytes: Uint8Array): boolean {
  try {
    return looksLikeText(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return false;
  }
}

/**
 * Decoded text that still holds NULs or many control characters is binary that happened to decode (UTF-16
 * read as UTF-8, a compressed stream read as Latin-1). Tabs, newlines, form feeds and ANSI escapes are text.
 */
export function looksLikeText(text: string): boolean {
  if (text.includes('\u0000')) return false;
  const sample = text.slice(0, 65_536);
  const controls = sample.match(/[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/g)?.length ?? 0;
  return controls <= sample.length / 100;
}
