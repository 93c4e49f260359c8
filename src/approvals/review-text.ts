import { printable } from '../policy/printable.js';
import type { Params } from '../protocol/jsonrpc.js';

/**
 * The keys a reviewer must see first: the tool's required properties, in the order its input schema lists
 * them. The definition comes from the upstream: anything but a list of strings counts as no list.
 */
export function requiredKeys(definition: Params | undefined): string[] {
  const schema = definition?.inputSchema;
  const required = schema !== null && typeof schema === 'object' ? (schema as Params).required : undefined;
  return Array.isArray(required) ? [...new Set(required.filter((k): k is string => typeof k === 'string'))] : [];
}

/**
 * A call's arguments as the human who approves it reads them: every one, whole, pretty-printed, the required
 * keys first and the others sorted — so the agent, which chose the order it sent them in, cannot push what
 * matters below a long harmless value. Invisible and control characters are escaped (see printable), so what is
 * shown is what runs, in a terminal, a browser or a client's dialog alike.
 */
export function reviewText(args: Params, required: readonly string[]): string {
  const first = required.filter((k) => Object.hasOwn(args, k));
  const rest = Object.keys(args)
    .filter((k) => !first.includes(k))
    .sort();
  const keys = [...first, ...rest].filter((k) => args[k] !== undefined);
  if (keys.length === 0) return '{}';
  try {
    const lines = keys.map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(args[k], null, 2).replaceAll('\n', '\n  ')}`);
    return `{\n${lines.join(',\n')}\n}`
      .split('\n')
      .map((line) => printable(line, Infinity))
      .join('\n');
  } catch (err) {
    // Nested too deeply to print: nobody can review what cannot be shown.
    return `[the arguments cannot be shown (${(err as Error).message}); deny the call]`;
  }
}
