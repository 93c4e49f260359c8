import type { DefinitionFinding, ProseScan } from '../scan-types.js';

/**
 * Characters that show nothing: every Default_Ignorable_Code_Point (tag characters, zero-width ones, bidi and
 * format controls, Hangul fillers, variation selectors…), as Unicode defines them, not a hand-made list.
 */
const INVISIBLE = String.raw`\p{Default_Ignorable_Code_Point}`;
/** Private-use characters show what a font makes of them: in a definition, no more honest than invisible ones. */
const PRIVATE_USE = String.raw`\u{F0000}-\u{FFFFD}\uE000-\uF8FF`;
const HIDDEN = new RegExp(`[${INVISIBLE}${PRIVATE_USE}]`, 'u');
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE}]`, 'gu');
const TAGS = /[\u{E0020}-\u{E007E}]+/gu;
/**
 * One emoji or text presentation selector after a character that has both presentations (`⚠️`) is how emoji are
 * written and carries nothing; after a letter it splits a word, and a run of selectors can carry bytes (one per
 * selector), so only that lone one is ordinary.
 */
const PRESENTATION = new RegExp(String.raw`(?<=\p{Emoji})[\uFE0E\uFE0F](?![${INVISIBLE}])`, 'gu');

/** The text as a model may read it: tag characters decoded to the ASCII they mirror, other invisibles dropped. */
export function revealHidden(text: string): string {
  return text
    .replace(TAGS, (tags) => [...tags].map((c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000)).join(''))
    .replace(INVISIBLE_ALL, '');
}

/** Text with every invisible character shown as its code point, so a person sees what the model would read. */
export const showHidden = (s: string) => [...s].map((c) => (HIDDEN.test(c) ? `<U+${c.codePointAt(0)!.toString(16).toUpperCase()}>` : c)).join('');

/** Evidence as a finding shows it: invisible characters made visible, shortened. */
export const show = (s: string, max = 120) => {
  const visible = showHidden(s);
  return visible.length > max ? `${visible.slice(0, max - 1)}…` : visible;
};

/** Invisible characters are the attack whatever they carry; what they hide is scanned like any text. */
export function hiddenText(raw: string, where: string, scanProse: ProseScan): DefinitionFinding[] {
  const hidden = raw.replace(PRESENTATION, '').match(HIDDEN_ALL);
  if (!hidden) return [];
  const findings: DefinitionFinding[] = [{ rule: 'hidden-unicode', severity: 'high', where, evidence: `${hidden.length} invisible character(s): ${show(raw)}` }];
  const revealed = revealHidden(raw);
  if (revealed !== raw) findings.push(...scanProse(revealed, () => `${where} (hidden text)`));
  return findings;
}
