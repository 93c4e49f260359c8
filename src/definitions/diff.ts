import { diffLines } from 'diff';
import { canonicalJson } from '../canonical-json.js';
import { showHidden } from './scan.js';

/** One line of a definition diff: kept, added or removed; `flagged` when a finding points at it. */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
  flagged: boolean;
}

interface FindingRef {
  where: string;
  evidence: string;
}

/** Tag characters spell ASCII out of sight; in a diff they are decoded, so the hidden text reads as text. */
const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;

/**
 * What changed between the definition last trusted and the one offered now, as lines of indented JSON with
 * sorted keys — hidden text decoded, every other invisible character shown by its code point — and the lines
 * a scanner finding points at marked. With nothing trusted yet, every line is new.
 */
export function definitionDiff(before: unknown, after: unknown, findings: readonly FindingRef[]): DiffLine[] {
  const old = before === undefined ? '' : pretty(before);
  const lines: DiffLine[] = [];
  for (const part of diffLines(old, pretty(after))) {
    const op = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ op, text, flagged: op !== '-' && points(text, findings) });
  }
  return lines;
}

/** Indented JSON with every object's keys in canonical order (parsing canonical JSON keeps its key order). */
function pretty(value: unknown): string {
  const text = JSON.stringify(JSON.parse(canonicalJson(value ?? null)), null, 2);
  return `${readable(text)}\n`;
}

function readable(text: string): string {
  const decoded = text.replace(TAG_RUN, (run) => `⟨hidden: ${[...run].map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).join('')}⟩`);
  return showHidden(decoded);
}

/** A line a finding points at: it holds the finding's evidence, or it is the top-level field the finding names. */
function points(line: string, findings: readonly FindingRef[]): boolean {
  return findings.some((f) => {
    const evidence = f.evidence.replace(/…$/, '').replace(/^.*?: /, '').slice(0, 40).trim();
    if (evidence.length >= 8 && line.includes(evidence)) return true;
    const key = f.where.split('.').at(-1)!.replace(/\[\d+\]$/, '');
    return !f.where.includes('.') && line.startsWith(`  "${key}":`);
  });
}
