import type { WhereAt } from './scan-types.js';

/** A text readied once for every prose rule: quoted examples blanked, lower-cased, split into sentences. */
export interface Prose {
  original: string;
  unquoted: string;
  lower: string;
  sentences: [number, string][];
}

export function prose(text: string): Prose {
  const unquoted = stripQuoted(text);
  return { original: text, unquoted, lower: unquoted.toLowerCase(), sentences: sentences(unquoted) };
}

/**
 * The definition's prose as one text, each string ending a sentence so that no rule runs across two of them;
 * schema keywords ("object", a property's name) hold no sentence and are left out.
 */
export function joinProse(texts: [string, string][]): { text: string; whereAt: WhereAt } {
  const parts: { where: string; start: number }[] = [];
  let text = '';
  for (const [where, raw] of texts) {
    if (raw.length < 20 && !/\s/.test(raw)) continue;
    parts.push({ where, start: text.length });
    text += `${raw}.\n`;
  }
  const whereAt = (index: number) => {
    let at = parts[0]?.where ?? 'description';
    for (const p of parts) if (p.start <= index) at = p.where;
    return at;
  };
  return { text, whereAt };
}

/** The sentences of a text, each with where it starts. */
function sentences(text: string): [number, string][] {
  const out: [number, string][] = [];
  let start = 0;
  for (const m of text.matchAll(/(?<=[.!?])\s+|\n+/g)) {
    if (text.slice(start, m.index).trim()) out.push([start, text.slice(start, m.index)]);
    start = m.index + m[0].length;
  }
  if (text.slice(start).trim()) out.push([start, text.slice(start)]);
  return out;
}

/** Blanks keep every position where it was, so a finding still points into the right string. */
const blank = (m: string) => ' '.repeat(m.length);

/** Text in quotes or backticks is an example the description gives ("flags phrases like 'ignore previous…'"). */
function stripQuoted(text: string): string {
  return text
    .replace(/"[^"\n]{0,200}"|“[^”\n]{0,200}”|'[^'\n]{3,200}'(?!\w)|`[^`\n]{0,200}`/g, (m) => (/\s/.test(m) ? blank(m) : m))
    // "Expected output: …", "Sample response: …": the text after such a label is content the tool shows.
    .replace(text.includes(':') ? /\b(?:output|response|reply|text|string|example|sample|input|fixture|payload|message|snippet|returns?)\s*:[^.\n]*/gi : /$^/, blank);
}
