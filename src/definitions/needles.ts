import { NeedleError, parsePattern, type PatternNode } from './pattern-parts.js';

/**
 * The literal prefilter of a pattern: needles (lower-case strings) and how a match holds them — all of these,
 * any of those. A text whose needles do not satisfy it cannot match, so the scanner finds the needles of all its
 * rules in one pass and runs only the patterns whose prefilter holds. The needles are read off the pattern itself,
 * never kept beside it by hand: a hand-kept list drifts from its pattern and then quietly skips text the pattern
 * matches (as "not " did for `not\s+` and a tab).
 *
 * Each part of the pattern (pattern-parts.ts) is given the strings it matches exactly, when they are few, and the
 * prefilter its matches satisfy. Needles are lower-cased and meant for the lower-cased text: a text that holds
 * "SYSTEM" holds "system" once lowered, so one prefilter serves patterns with and without the `i` flag.
 */
export type Prefilter = string | { all: Prefilter[] } | { any: Prefilter[] };

export { NeedleError } from './pattern-parts.js';

/** The prefilter of a pattern; throws when some match holds no literal to look for. */
export function prefilterOf(pattern: RegExp): Prefilter {
  if (/[uv]/.test(pattern.flags) && pattern.flags.includes('i')) {
    // Unicode case folding matches ſ for s and K (Kelvin) for k, which lower-casing the text does not give.
    throw new NeedleError(`${pattern}: needles are not read from a pattern with the flags iu`);
  }
  const filter = info(parsePattern(pattern.source)).filter;
  if (!filter) throw new NeedleError(`${pattern}: some match holds no literal text, so no needle can gate it`);
  return filter.prefilter;
}

/** Every needle a prefilter names, sorted. */
export function needlesOf(filter: Prefilter): string[] {
  const out = new Set<string>();
  const walk = (f: Prefilter): void => {
    if (typeof f === 'string') out.add(f);
    else for (const g of 'all' in f ? f.all : f.any) walk(g);
  };
  walk(filter);
  return [...out].sort();
}

/**
 * The needles that alone rule a text out: of all the clauses a match requires only the first, the rarest, is
 * looked for in the one pass; the others are looked for in the few texts that hold it.
 */
export function firstNeedles(filter: Prefilter): string[] {
  if (typeof filter === 'string') return [filter];
  return 'all' in filter ? firstNeedles(filter.all[0]) : [...new Set(filter.any.flatMap(firstNeedles))];
}

/** Whether a text's needles satisfy a prefilter: only then can the pattern match the text. */
export function holds(filter: Prefilter, has: (needle: string) => boolean): boolean {
  if (typeof filter === 'string') return has(filter);
  return 'all' in filter ? filter.all.every((f) => holds(f, has)) : filter.any.some((f) => holds(f, has));
}

/** One search for the first needles of these patterns, in the text as it is: the `i` flag stands for lower-casing it. */
export function needleGate(patterns: readonly RegExp[]): RegExp {
  return new RegExp([...new Set(patterns.flatMap((p) => firstNeedles(prefilterOf(p))))].map(escapeRe).join('|'), 'i');
}

export const escapeRe = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A prefilter with how likely a text is to satisfy it without matching, to choose the rarest. */
interface Filter {
  prefilter: Prefilter;
  chance: number;
}

interface Info {
  /** Every string the part matches, when they are few. */
  exact?: Set<string>;
  /** What every match of the part satisfies; undefined when a match may hold no literal. */
  filter?: Filter;
}

/** More exact strings than this and a part counts as matching "many". */
const MAX_EXACT = 64;
/** A sequence's prefilter requires at most this many of its clauses, the rarest: each beyond the first costs a search. */
const MAX_CLAUSES = 3;

function info(node: PatternNode): Info {
  switch (node.kind) {
    case 'chars': {
      const lower = new Set([...node.chars].map((c) => c.toLowerCase()));
      return { exact: lower, filter: anyOf(lower) };
    }
    case 'wide':
      return {};
    case 'empty':
      return { exact: new Set(['']) };
    case 'repeat': {
      const inner = info(node.node);
      return { exact: repeated(inner.exact, node.min, node.max), filter: node.min >= 1 ? inner.filter : undefined };
    }
    case 'alternatives':
      return alternativesInfo(node.options.map(sequenceInfo));
  }
}

/** The strings a repeat matches, when its part's are known and few. */
function repeated(exact: Set<string> | undefined, min: number, max: number): Set<string> | undefined {
  if (!exact || max > 4) return undefined;
  const out = new Set(min === 0 ? [''] : []);
  let run: Set<string> | undefined = new Set(['']);
  for (let k = 1; k <= max && run; k++) {
    run = product(run, exact);
    if (run && k >= min) for (const s of run) out.add(s);
  }
  return run && out.size <= MAX_EXACT ? out : undefined;
}

/**
 * A sequence: every literal run between its wide parts is required, and so is what each part that is not in a run
 * requires; the rarest few of those are its prefilter.
 */
function sequenceInfo(parts: PatternNode[]): Info {
  const clauses: Filter[] = [];
  let run = new Set(['']);
  let whole = true;
  const close = () => {
    const filter = run.has('') ? undefined : anyOf(run);
    if (filter) clauses.push(filter);
  };
  for (const part of parts) {
    const i = info(part);
    const joined = i.exact && product(run, i.exact);
    if (joined) {
      run = joined;
      continue;
    }
    // The run ends here: it is one clause, and a new run starts with this part (or after it).
    whole = false;
    close();
    if (!i.exact && i.filter) clauses.push(i.filter);
    run = i.exact ?? new Set(['']);
  }
  close();
  const chosen = clauses.sort((a, b) => a.chance - b.chance).slice(0, MAX_CLAUSES);
  const filter = chosen.length === 0 ? undefined : chosen.length === 1 ? chosen[0] : { prefilter: { all: chosen.map((c) => c.prefilter) }, chance: chosen.reduce((p, c) => p * c.chance, 1) };
  return { exact: whole ? run : undefined, filter };
}

function alternativesInfo(options: Info[]): Info {
  const exact = options.every((o) => o.exact) ? new Set(options.flatMap((o) => [...o.exact!])) : undefined;
  if (exact && exact.size <= MAX_EXACT) return { exact, filter: exact.has('') ? undefined : anyOf(exact) };
  if (!options.every((o) => o.filter)) return {};
  const filters = options.map((o) => o.filter!);
  if (filters.length === 1) return { filter: filters[0] };
  return { filter: { prefilter: { any: filters.map((f) => f.prefilter) }, chance: Math.min(1, filters.reduce((p, f) => p + f.chance, 0)) } };
}

/** Any of these strings; a string that holds another of them adds nothing, the shorter is found wherever it is. */
function anyOf(strings: Set<string>): Filter {
  const needles = [...strings].filter((s) => ![...strings].some((t) => t !== s && s.includes(t)));
  const chance = Math.min(1, needles.reduce((p, n) => p + chanceOf(n), 0));
  return { prefilter: needles.length === 1 ? needles[0] : { any: needles }, chance };
}

/** Every string of `a` followed by every string of `b`, unless that makes too many. */
function product(a: Set<string>, b: Set<string>): Set<string> | undefined {
  if (a.size * b.size > MAX_EXACT) return undefined;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

/**
 * How likely a needle is at a given place in a description, to rank needles, no more: a letter 1/8 (words are far
 * likelier than letters drawn at random: "any" is everywhere), a digit 1/200, punctuation prose is full of 1/50,
 * a symbol such as @ or < 1/1000.
 */
function chanceOf(needle: string): number {
  let p = 1;
  for (const c of needle) p *= /[a-z]/.test(c) ? 1 / 8 : c === ' ' ? 0.18 : /\d/.test(c) ? 1 / 200 : /[.,:;'"()/_-]/.test(c) ? 1 / 50 : 1 / 1000;
  return p;
}
