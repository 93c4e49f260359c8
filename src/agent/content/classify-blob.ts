import { decodeText } from './decode-text.js';
import { baseMime, charsetOf, isImageMime, isTextMime, magicMime, mimeFromUri, OCTET_STREAM, sniffMime } from './mime.js';

/** What a blob turned out to be, decided from its declared type, its URI and, above all, its own bytes. */
export type BlobKind =
  | { kind: 'text'; mime: string; text: string }
  | { kind: 'image'; mime: string }
  | { kind: 'pdf' }
  | { kind: 'binary'; mime: string; reason?: string; hint?: string };

const NOT_SHOWN = 'It is not shown, so that nothing binary is read as text.';

/**
 * Decides how a blob may reach the model. The type comes from the server's mimeType, else the URI's extension,
 * else the bytes. The bytes have the last word where a wrong label would do harm: a PNG labelled text/plain is
 * an image, a "PNG" without PNG bytes is not sent to a provider, and "text" that does not decode is binary.
 */
export function classifyBlob(bytes: Uint8Array, declaredMime: string | undefined, uri: string): BlobKind {
  const declared = baseMime(declaredMime) && baseMime(declaredMime) !== OCTET_STREAM ? declaredMime : undefined;
  const guessed = declared ?? (mimeFromUri(uri) !== OCTET_STREAM ? mimeFromUri(uri) : undefined);
  const type = guessed ?? sniffMime(bytes);
  let base = baseMime(type);
  const magic = magicMime(bytes);

  // Text first: a label saying text is believed whenever the bytes decode as text, even if they start "GIF89a".
  if (isTextMime(base)) {
    const charset = charsetOf(type);
    const text = decodeText(bytes, charset);
    if (text !== undefined) return { kind: 'text', mime: base, text };
    if (!magic) return { kind: 'binary', mime: base, reason: `Labelled ${base}, but the bytes are not valid ${charset ?? 'UTF-8'} text.`, hint: NOT_SHOWN };
  }
  let relabelled: string | undefined;
  if (magic && magic !== base && (isTextMime(base) || isImageMime(base) || base === 'application/pdf')) {
    relabelled = `Labelled ${base}, but the bytes are ${magic}.`;
    base = magic;
  }
  if (isImageMime(base)) {
    if (magic === base) return { kind: 'image', mime: base };
    return { kind: 'binary', mime: base, reason: `Labelled ${base}, but the bytes are not a PNG, JPEG, GIF or WebP image.`, hint: 'It cannot be shown.' };
  }
  if (base === 'application/pdf') {
    if (magic === base) return { kind: 'pdf' };
    return { kind: 'binary', mime: base, reason: 'Labelled application/pdf, but the bytes have no %PDF header.', hint: 'It cannot be read.' };
  }
  return { kind: 'binary', mime: base, ...(relabelled ? { reason: relabelled } : {}) };
}
