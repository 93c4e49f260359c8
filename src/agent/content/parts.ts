import type { ImagePart, TextPart, ToolResultPart } from 'ai';

/** What converted content is made of: AI SDK text parts, and image parts holding base64 data and a media type. */
export type ModelPart = TextPart | ImagePart;

/** The AI SDK's tool-result output (not re-exported by `ai` under its own name). */
export type ToolResultOutput = ToolResultPart['output'];

export const textPart = (text: string): TextPart => ({ type: 'text', text });

/** The data is re-encoded from the decoded bytes, so providers get canonical base64 whatever the server sent. */
export const imagePart = (bytes: Uint8Array, mediaType: string): ImagePart => ({
  type: 'image',
  image: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  mediaType,
});

/** Base64 data of an image part (resourceToParts and toolResultToOutput only ever make base64 strings). */
export function imageData(part: ImagePart): string {
  const { image } = part;
  if (typeof image === 'string') return image;
  if (image instanceof URL) return image.toString();
  return Buffer.from(image instanceof ArrayBuffer ? new Uint8Array(image) : image).toString('base64');
}

/** Bytes decoded from base64, as the protocol carries blobs and images. */
export const fromBase64 = (data: string): Uint8Array => Buffer.from(data, 'base64');
