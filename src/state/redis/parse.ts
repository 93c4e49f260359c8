/** What Redis hands back is text another replica wrote: parsed, then checked for shape, never trusted as typed. */
export function parseJson(text: string | null | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export const isString = (v: unknown): v is string => typeof v === 'string';
