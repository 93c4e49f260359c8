import type { ScannedDefinition } from './scan-types.js';

/* What a definition shows the model, as the scanner's rules read it: its strings and its parameters' names. */

/** Every string a client shows the model, with where it sits: name, title, description, and all of the schemas. */
export function textsOf(def: ScannedDefinition): [string, string][] {
  const out: [string, string][] = [];
  if (def.title) out.push(['title', def.title]);
  if (def.description) out.push(['description', def.description]);
  const walk = (value: unknown, where: string, depth: number): void => {
    if (depth > 12) return;
    if (typeof value === 'string') out.push([where, value]);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`, depth + 1));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`, depth + 1);
  };
  walk(def.inputSchema, 'inputSchema', 0);
  walk(def.outputSchema, 'outputSchema', 0);
  return out;
}

/** The names of a schema's parameters. */
export function propertiesOf(schema: unknown): string[] {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  return props && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
}
