import { escapeRe, firstNeedles, holds, needleGate, prefilterOf, type Prefilter } from './needles.js';
import { prose, type Prose } from './prose.js';
import { show } from './rules/hidden-unicode.js';
import type { DefinitionFinding, FindingRule, Severity, WhereAt } from './scan-types.js';

/**
 * The engine the prose rules run on. Rules are data (rules/*.ts): a pattern and what a match of it means. The
 * engine readies a text once, finds the needles of every rule in one pass (needles.ts reads them off the
 * patterns), and runs only the rules whose needles are there — most descriptions hold too few of most rules'.
 */

/** One rule over prose: a pattern and its severity; `imperative` rules count only where they command. */
export interface PhraseRule {
  rule: FindingRule;
  severity: Severity;
  pattern: RegExp;
  /** The phrase may also describe what a tool detects ("analyzes prompts that ignore …"): count it only as a command. */
  imperative?: boolean;
  /** Matched against the text with its quoted parts, for rules about what is in backticks. */
  raw?: boolean;
  /** Also tried on the text with digits read as letters ("1gn0re all pr3vious"). */
  leet?: boolean;
  /** A match the text goes on to describe this way is named, not used ("<IMPORTANT> blocks"). */
  notBefore?: RegExp;
}

/** A rule over the sentences of a text, read only when the text holds something its pattern matches. */
export interface SentenceRule {
  pattern: RegExp;
  scan(sentences: [number, string][], whereAt: WhereAt): DefinitionFinding[];
}

type Rule = PhraseRule | SentenceRule;

/**
 * The prose rules as one scan of a text, given as it is or already readied: phrase rules in the order their
 * findings are listed, then sentence rules.
 */
export function proseScanner(phrases: readonly PhraseRule[], sentenceRules: readonly SentenceRule[]): (text: string | Prose, whereAt: WhereAt) => DefinitionFinding[] {
  const prefilters = new Map<Rule, Prefilter>([...phrases, ...sentenceRules].map((r) => [r, prefilterOf(r.pattern)]));
  // A rule read on the original text tests its own needles there; the rest share the one pass below, which finds
  // the needles that can rule a text out (each rule's first) and so the rules worth a closer look.
  const own = new Map(phrases.filter((p) => p.raw).map((p) => [p, needleGate([p.pattern])]));
  const byNeedle = new Map<string, Rule[]>();
  for (const r of [...phrases.filter((p) => !own.has(p)), ...sentenceRules]) {
    for (const n of firstNeedles(prefilters.get(r)!)) (byNeedle.get(n) ?? byNeedle.set(n, []).get(n)!).push(r);
  }
  const needlesIn = needleFinder([...byNeedle.keys()]);
  const leet = phrases.filter((p) => p.leet);

  return (text, whereAt) => {
    const findings: DefinitionFinding[] = [];
    const { original, unquoted, lower, sentences: parts } = typeof text === 'string' ? prose(text) : text;
    // Digits for letters ("1gn0re all pr3vious") are read as the letters too.
    const plain = /[a-z][013457@$][a-z]|[013457][a-z]{2}/i.test(lower) ? deLeet(lower) : undefined;
    if (plain) for (const p of leet) if (p.pattern.test(plain)) findings.push({ rule: p.rule, severity: 'high', where: whereAt(0), evidence: 'written with digits for letters' });
    const present = needlesIn(lower);
    const candidates = new Set<Rule>();
    for (const n of present) for (const r of byNeedle.get(n)!) candidates.add(r);
    const has = (needle: string) => (byNeedle.has(needle) ? present.has(needle) : lower.includes(needle));
    const found = (r: Rule) => candidates.has(r) && holds(prefilters.get(r)!, has);
    for (const p of phrases) {
      if (!(own.get(p)?.test(original) ?? found(p))) continue;
      const m = p.pattern.exec(p.raw ? original : unquoted);
      if (!m || negated(unquoted, m.index) || (p.imperative && !commands(unquoted, m.index))) continue;
      if (p.notBefore?.test(unquoted.slice(m.index + m[0].length))) continue;
      findings.push({ rule: p.rule, severity: p.severity, where: whereAt(m.index), evidence: show(m[0]) });
    }
    for (const s of sentenceRules) if (found(s)) findings.push(...s.scan(parts, whereAt));
    return findings;
  };
}

/**
 * The needles of every rule gated on the lower-case text, found in one pass: a lookahead at each position reports
 * the longest needle starting there (shorter ones starting there are inside it, and are added with it). One pass
 * costs a third of testing each rule's gate on its own — the gates were a third of the scanner's time.
 */
function needleFinder(needles: string[]): (lower: string) => Set<string> {
  const longestFirst = [...new Set(needles)].sort((a, b) => b.length - a.length);
  const scan = new RegExp(`(?=(${longestFirst.map(escapeRe).join('|')}))`, 'g');
  const inside = new Map(longestFirst.map((n) => [n, longestFirst.filter((m) => m !== n && n.includes(m))]));
  return (lower) => {
    const found = new Set<string>();
    for (const m of lower.matchAll(scan)) {
      if (found.has(m[1])) continue;
      found.add(m[1]);
      for (const inner of inside.get(m[1])!) found.add(inner);
    }
    return found;
  };
}

/** Where a phrase stands: a command (sentence start, after "then", a colon, a semicolon), not a described behaviour. */
function commands(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 60), index);
  if (/\b(?:that|which|who|to|whether|if|when|where|like|such\s+as|e\.g\.|for\s+example|tries|attempts?|asks?|detects?|flags?|finds?|blocks?|catches|analy[sz]es|explains?|describes?|telling|tells|about|of)\s+(?:\w+\s+){0,2}$/i.test(before)) return false;
  return true;
}

/** What a description says it is not ("rather than a post-approval swap", "not as a command") is not a claim. */
function negated(text: string, index: number): boolean {
  return /\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|not\s+(?:an?|the|as)|never\s+as)\s+(?:\w+\s+){0,3}$/i.test(text.slice(Math.max(0, index - 50), index));
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const deLeet = (text: string) => text.replace(/[013457@$]/g, (c) => LEET[c]);
