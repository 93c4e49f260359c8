/**
 * What every measured client looks like to the timing loop: one `echo` call, answered with the text the tool
 * returned. The loop checks that text, so a path that answers fast but wrong cannot win.
 */
export interface EchoClient {
  echo(message: string): Promise<string>;
  close(): Promise<void>;
}

/** The JSON-RPC id type on the wire. */
export type Id = string | number;

/** The text of the first content block of a tools/call result, or a description of what came instead. */
export function echoText(result: unknown): string {
  const content = (result as { content?: Array<{ type?: string; text?: string }> } | undefined)?.content;
  const first = content?.[0];
  if (first?.type === 'text' && typeof first.text === 'string') return first.text;
  return `unexpected result: ${JSON.stringify(result).slice(0, 200)}`;
}
