import { isDeepStrictEqual } from 'node:util';
import type { BlobResourceContents, CallToolResult, ContentBlock, ResourceLink, TextResourceContents } from '@modelcontextprotocol/client';
import { classifyBlob } from './classify-blob.js';
import { describeBinary, formatSize } from './describe.js';
import { isImageMime, magicMime } from './mime.js';
import { partsToToolOutput, type ToolOutput, type ToolOutputOptions } from './parts-to-tool-output.js';
import { fromBase64, imagePart, type ModelPart, textPart } from './parts.js';
import { pdfToText } from './pdf.js';
import { windowText } from './window-text.js';

export type ResourceContent = TextResourceContents | BlobResourceContents;

export interface ConvertOptions {
  /** The model accepts image parts. Without vision, images become descriptors. */
  vision: boolean;
  /** Cap on the text of one resource, in UTF-8 bytes; longer text is cut with a note saying how to read on. */
  maxTextBytes?: number;
}

export interface ResourceOptions extends ConvertOptions {
  /** The URI that was read; named in notes when a content item carries none. */
  uri: string;
  /**
   * read_resource's `offset` and `length`, in UTF-8 bytes of the delivered text (see windowText); with several
   * content items, each item's text is windowed alike.
   */
  offset?: number;
  length?: number;
}

/** The text of a resource (decoded, or extracted from a PDF) shown through the offset / length / cap window. */
function windowed(text: string, uri: string, options: ResourceOptions): ModelPart[] {
  if (text === '') return [textPart(`[The resource ${uri} is empty (0 bytes).]`)];
  const w = windowText(text, { uri, offset: options.offset, length: options.length, maxBytes: options.maxTextBytes });
  return w.note ? [textPart(w.text), textPart(w.note)] : [textPart(w.text)];
}

async function blobToParts(item: BlobResourceContents, uri: string, options: ResourceOptions): Promise<ModelPart[]> {
  const bytes = fromBase64(item.blob);
  const kind = classifyBlob(bytes, item.mimeType, uri);
  switch (kind.kind) {
    case 'text':
      return windowed(kind.text, uri, options);
    case 'image':
      if (!options.vision) return [textPart(describeBinary(kind.mime, bytes, uri))];
      return [textPart(`[Image: ${kind.mime}, ${formatSize(bytes.length)}, uri ${uri}]`), imagePart(bytes, kind.mime)];
    case 'pdf':
      try {
        const pdf = await pdfToText(bytes);
        const header = `[PDF document: ${pdf.pages} ${pdf.pages === 1 ? 'page' : 'pages'}, ${formatSize(bytes.length)}, uri ${uri}; its text follows, page by page]`;
        return [textPart(header), ...windowed(pdf.text, uri, options)];
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, '');
        const reason = `Its text could not be extracted: ${message}.`;
        return [textPart(describeBinary('application/pdf', bytes, uri, { reason, hint: 'It may be damaged or encrypted.' }))];
      }
    case 'binary':
      return [textPart(describeBinary(kind.mime, bytes, uri, { reason: kind.reason, hint: kind.hint }))];
  }
}

/**
 * The contents of a resource read, as parts for the model: text whole (or windowed, with an exact note),
 * images as image parts for vision models, PDFs as page-marked text, anything else as a descriptor.
 * A read that returns several items labels each one.
 */
export async function resourceToParts(contents: readonly ResourceContent[], options: ResourceOptions): Promise<ModelPart[]> {
  if (contents.length === 0) return [textPart(`[The resource ${options.uri} has no contents.]`)];
  const parts: ModelPart[] = [];
  for (const [i, item] of contents.entries()) {
    const uri = item.uri || options.uri;
    if (contents.length > 1) parts.push(textPart(`[Part ${i + 1} of ${contents.length}: ${uri}${item.mimeType ? ` (${item.mimeType})` : ''}]`));
    if ('text' in item && typeof item.text === 'string') parts.push(...windowed(item.text, uri, options));
    else if ('blob' in item && typeof item.blob === 'string') parts.push(...(await blobToParts(item, uri, options)));
    else parts.push(textPart(`[The resource ${uri} returned an item with neither text nor blob.]`));
  }
  return parts;
}

/** A resource_link as a line the model can act on: what it is, and the read_resource call that opens it. */
export function describeResourceLink(link: ResourceLink): string {
  const facts = [link.mimeType, link.size !== undefined ? formatSize(link.size) : undefined].filter(Boolean).join(', ');
  const title = link.title ?? link.name;
  const about = link.description ? `: ${link.description}` : '';
  return `[Resource link "${title}" ${link.uri}${facts ? ` (${facts})` : ''}${about}. To read it, call read_resource with ${JSON.stringify({ uri: link.uri })}.]`;
}

/** An image content block: an image part for vision models when the bytes are a viewable image, else a descriptor. */
function imageBlockToParts(data: string, mimeType: string, vision: boolean): ModelPart[] {
  const bytes = fromBase64(data);
  const magic = magicMime(bytes);
  if (vision && magic && isImageMime(magic)) return [imagePart(bytes, magic)];
  if (vision) {
    return [textPart(describeBinary(mimeType, bytes, undefined, { subject: 'Image', reason: 'The bytes are not a PNG, JPEG, GIF or WebP image.', hint: 'It cannot be shown.' }))];
  }
  return [textPart(describeBinary(mimeType, bytes, undefined, { subject: 'Image' }))];
}

/**
 * One MCP content block (from a tool result or a prompt message) as parts. Embedded resources are converted
 * like a read, under a line naming them; links become read_resource hints.
 */
export async function contentBlockToParts(block: ContentBlock, options: ConvertOptions): Promise<ModelPart[]> {
  switch (block.type) {
    case 'text':
      return [textPart(block.text)];
    case 'image':
      return imageBlockToParts(block.data, block.mimeType, options.vision);
    case 'audio':
      return [textPart(describeBinary(block.mimeType, fromBase64(block.data), undefined, { subject: 'Audio' }))];
    case 'resource_link':
      return [textPart(describeResourceLink(block))];
    case 'resource': {
      const { resource } = block;
      const label = textPart(`[Embedded resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}:]`);
      return [label, ...(await resourceToParts([resource], { ...options, uri: resource.uri }))];
    }
    default: {
      // A block type from a newer protocol revision: say so rather than drop it silently.
      const type = (block as { type?: unknown }).type;
      return [textPart(`[Content of type ${JSON.stringify(type)} that this agent cannot show.]`)];
    }
  }
}

export type ToolResultOptions = ConvertOptions & ToolOutputOptions;

function parsesTo(text: string, value: unknown): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}

/**
 * A tool's result as the AI SDK tool output: every content block converted (images for vision models,
 * embedded resources like reads, links as read_resource hints), structuredContent added as labelled JSON unless
 * a text block already carries the same JSON (servers are asked to send both), and isError kept.
 * Text blocks are passed whole: unlike a resource, a tool's text cannot be read again in pieces.
 */
export async function toolResultToOutput(result: CallToolResult, options: ToolResultOptions): Promise<ToolOutput> {
  const blocks: readonly ContentBlock[] = result.content ?? [];
  const parts: ModelPart[] = [];
  for (const block of blocks) parts.push(...(await contentBlockToParts(block, options)));
  const structured = result.structuredContent;
  if (structured !== undefined && !blocks.some((b) => b.type === 'text' && parsesTo(b.text, structured))) {
    parts.push(textPart(`Structured output (JSON):\n${JSON.stringify(structured)}`));
  }
  return partsToToolOutput(parts, { ...options, isError: result.isError === true });
}
