import { formatSize } from './describe.js';
import { imageData, type ModelPart, textPart, type ToolResultOutput } from './parts.js';

export interface ToolOutputOptions {
  /**
   * Where images go. `inline` (the default): image-data parts inside the tool result, which Anthropic's API
   * accepts. `separate`: the tool result names each image and `attachments` carries them, to be sent in a user
   * message right after the tool results — OpenAI-style chat APIs take only text in tool messages, and the AI
   * SDK's openai-compatible provider would otherwise send the base64 to the model as JSON text.
   */
  images?: 'inline' | 'separate';
  /** How attachments name their source, e.g. `the result of files__read_media_file`; `the tool result above` unless told. */
  source?: string;
  isError?: boolean;
}

export interface ToolOutput {
  /** For the AI SDK: `text` when there is no image to carry, `content` with image-data parts, `error-text` for errors. */
  output: ToolResultOutput;
  /** Parts for a user message after the tool results (`images: 'separate'`); empty otherwise. */
  attachments: ModelPart[];
  isError: boolean;
}

type ContentItem = { type: 'text'; text: string } | { type: 'image-data'; data: string; mediaType: string };

/**
 * Converted parts as one tool output. Adjacent text parts are joined by newlines; a result with no images is
 * plain `text`, which every provider passes as is. An error result is `error-text`: images in it are named,
 * not shown, since providers carry no images in errors.
 */
export function partsToToolOutput(parts: readonly ModelPart[], options: ToolOutputOptions = {}): ToolOutput {
  const isError = options.isError === true;
  const separate = options.images === 'separate';
  const items: ContentItem[] = [];
  const attachments: ModelPart[] = [];
  const addText = (text: string): void => {
    const last = items[items.length - 1];
    if (last?.type === 'text') last.text += `\n${text}`;
    else items.push({ type: 'text', text });
  };
  let count = 0;
  for (const part of parts) {
    if (part.type === 'text') {
      addText(part.text);
      continue;
    }
    const data = imageData(part);
    const mediaType = part.mediaType ?? 'image/png';
    const facts = `${mediaType}, ${formatSize(Buffer.byteLength(data, 'base64'))}`;
    count++;
    if (isError) addText(`[Image ${count} (${facts}): not shown, as the tool reported an error.]`);
    else if (separate) {
      addText(`[Image ${count} (${facts}) follows in the next user message.]`);
      attachments.push(textPart(`[Image ${count} of ${options.source ?? 'the tool result above'}:]`), part);
    } else items.push({ type: 'image-data', data, mediaType });
  }
  const text = items.map((i) => (i.type === 'text' ? i.text : '')).join('\n');
  if (isError) return { output: { type: 'error-text', value: text || '(The tool reported an error with no message.)' }, attachments, isError };
  if (items.every((i) => i.type === 'text')) return { output: { type: 'text', value: text || '(The tool returned no content.)' }, attachments, isError };
  return { output: { type: 'content', value: items }, attachments, isError };
}
