/** Turning MCP content into what a model can use: the agent loop imports from here. */
export { type ConvertOptions, contentBlockToParts, describeResourceLink, type ResourceContent, type ResourceOptions, resourceToParts, type ToolResultOptions, toolResultToOutput } from './convert.js';
export { classifyBlob, type BlobKind } from './classify-blob.js';
export { decodeText } from './decode-text.js';
export { describeBinary, type DescribeOptions, formatSize } from './describe.js';
export { baseMime, charsetOf, isImageMime, isTextMime, isUtf8Text, magicMime, mimeFromUri, sniffMime } from './mime.js';
export { type ModelPart, type ToolResultOutput } from './parts.js';
export { partsToToolOutput, type ToolOutput, type ToolOutputOptions } from './parts-to-tool-output.js';
export { pdfToText, type PdfText } from './pdf.js';
export { type TextWindow, windowText, type WindowTextOptions } from './window-text.js';
