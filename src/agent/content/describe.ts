import { baseMime, isImageMime } from './mime.js';

/** `12.3 KB (12,345 bytes)`; decimal units, with the exact count alongside. */
export function formatSize(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1000) return exact;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]} (${exact})`;
}

/** What the model could do with a blob it cannot read, by kind of media type. */
function hint(mime: string): string {
  if (isImageMime(mime)) return 'An image; this model cannot view images, so it is not shown.';
  if (mime.startsWith('image/')) return 'An image in a format models cannot view (only PNG, JPEG, GIF and WebP); a tool that converts images could make it viewable.';
  if (mime.startsWith('audio/')) return 'Audio; it cannot be played here. A transcription tool could turn it into text.';
  if (mime.startsWith('video/')) return 'Video; it cannot be played here.';
  if (/(zip|gzip|x-tar|x-7z|x-rar|x-bzip2|x-xz|zstd)/.test(mime)) return 'A compressed archive; its contents are not listed. A tool that unpacks archives could read them.';
  if (mime === 'application/pdf') return 'A PDF whose text could not be extracted.';
  if (mime.includes('officedocument') || mime.includes('opendocument') || mime === 'application/msword') return 'An office document; a tool that converts documents could extract its text.';
  if (mime.startsWith('font/')) return 'A font file.';
  return 'Not text, so it is not shown; it can be passed by URI to a tool that accepts this type.';
}

export interface DescribeOptions {
  /** What the descriptor calls the thing; `Binary resource` unless told. */
  subject?: string;
  /** Why it is described rather than shown, when that is not just "it is binary". */
  reason?: string;
  /** Replaces the usual hint for the media type (e.g. when the bytes contradict the declared type). */
  hint?: string;
}

/**
 * An honest one-line stand-in for content the model cannot read:
 * `[Binary resource: application/zip, 12.3 KB (12,345 bytes), uri demo://x.zip. A compressed archive; …]`.
 * Takes the bytes (or their count) so the size is the real one, not a server's claim.
 */
export function describeBinary(mime: string, bytes: Uint8Array | number, uri?: string, options: DescribeOptions = {}): string {
  const type = baseMime(mime) || 'application/octet-stream';
  const size = formatSize(typeof bytes === 'number' ? bytes : bytes.length);
  const where = uri ? `, uri ${uri}` : '';
  const why = options.reason ? ` ${options.reason}` : '';
  return `[${options.subject ?? 'Binary resource'}: ${type}, ${size}${where}.${why} ${options.hint ?? hint(type)}]`;
}
