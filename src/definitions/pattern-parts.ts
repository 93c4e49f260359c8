/**
 * The parts of a regular expression as far as its literal text goes: which characters it consumes, one of a few
 * known ones or one of many, in what order, repeated how often, and where it branches. Assertions and lookarounds
 * consume nothing. Enough of JavaScript's syntax to read any pattern a rule is written in; needles.ts reads the
 * needles of a pattern off these parts.
 */

export type PatternNode =
  | { kind: 'chars'; chars: Set<string>; source: string } // one character of a few, known
  | { kind: 'wide'; source: string } // one character of many (\w, \s, ., a negated or large class)
  | { kind: 'empty' } // consumes nothing: ^, $, \b, a lookaround
  | { kind: 'repeat'; node: PatternNode; min: number; max: number }
  | { kind: 'alternatives'; options: PatternNode[][] };
type Node = PatternNode;

/** Why a pattern cannot be read: the scanner refuses to load rather than skip a rule in silence. */
export class NeedleError extends Error {}

/** What a pattern's source says it matches: its parts, read as far as needles need them. */
export function parsePattern(source: string): PatternNode {
  return new Parser(source).parse();
}

/** Class escapes that stand for many characters. */
const WIDE_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'p', 'P']);
const CONTROL_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };

/** A reader of the regular expression syntax JavaScript accepts, enough to know what each part consumes. */
class Parser {
  private at = 0;

  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternatives();
    if (this.at < this.source.length) throw new NeedleError(`/${this.source}/: unexpected ) at ${this.at}`);
    return node;
  }

  private alternatives(): Node {
    const options: Node[][] = [[]];
    while (this.at < this.source.length && this.peek() !== ')') {
      if (this.peek() === '|') {
        this.at++;
        options.push([]);
        continue;
      }
      options.at(-1)!.push(this.quantified(this.atom()));
    }
    return { kind: 'alternatives', options };
  }

  private quantified(node: Node): Node {
    const c = this.peek();
    let range: [number, number] | undefined;
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      range = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.at));
      if (m) {
        this.at += m[0].length;
        range = [Number(m[1]), m[2] ? (m[3] ? Number(m[3]) : Infinity) : Number(m[1])];
      }
    }
    if (!range) return node;
    if (this.peek() === '?') this.at++; // lazy: matches the same strings
    return { kind: 'repeat', node, min: range[0], max: range[1] };
  }

  /** One atom; a character keeps its source, which says what characters it stands for. */
  private atom(): Node {
    const start = this.at;
    const node = this.readAtom();
    return node.kind === 'wide' || node.kind === 'chars' ? { ...node, source: this.source.slice(start, this.at) } : node;
  }

  private readAtom(): Node {
    const c = this.source[this.at++];
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return this.characterClass();
      case '\\':
        return this.escape();
      case '.':
        return WIDE;
      case '^':
      case '$':
        return { kind: 'empty' };
      default:
        return chars([c]);
    }
  }

  private group(): Node {
    const head = /^\?(?:<[=!]|[=!:]|<[A-Za-z_$][\w$]*>)?/.exec(this.source.slice(this.at))?.[0] ?? '';
    if (head === '?') throw new NeedleError(`/${this.source}/: unknown group at ${this.at}`);
    this.at += head.length;
    const inner = this.alternatives();
    if (this.source[this.at++] !== ')') throw new NeedleError(`/${this.source}/: unclosed group`);
    // A lookaround looks without consuming: the text it looks at is not part of the match.
    return /^\?(?:<[=!]|[=!])$/.test(head) ? { kind: 'empty' } : inner;
  }

  private escape(): Node {
    const c = this.source[this.at++];
    if (c === 'b' || c === 'B') return { kind: 'empty' };
    if (WIDE_ESCAPES.has(c)) return this.skipProperty(c);
    // A back-reference matches whatever its group did, the empty string too.
    if (/[1-9k]/.test(c)) throw new NeedleError(`/${this.source}/: back-references are not read`);
    return chars([this.escapedChar(c)]);
  }

  /** The character an escape outside \b, \d, \w, \s and \p stands for. */
  private escapedChar(c: string): string {
    if (c in CONTROL_ESCAPES) return CONTROL_ESCAPES[c];
    const code = c === 'x' ? /^[0-9a-fA-F]{2}/ : c === 'u' ? /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\})/ : undefined;
    if (!code) return c === 'c' ? String.fromCharCode(this.source.charCodeAt(this.at++) % 32) : c;
    const hex = code.exec(this.source.slice(this.at))?.[0];
    if (!hex) return c;
    this.at += hex.length;
    return String.fromCodePoint(parseInt(hex.replace(/[{}]/g, ''), 16));
  }

  /** `[…]`: the characters it holds when they are few; a negated class, a range or a class escape is many. */
  private characterClass(): Node {
    const negated = this.peek() === '^';
    if (negated) this.at++;
    const members: string[] = [];
    let wide = negated;
    while (this.at < this.source.length && this.peek() !== ']') {
      const c = this.classMember();
      if (this.peek() === '-' && this.source[this.at + 1] !== ']' && this.at + 1 < this.source.length) {
        // A range: read its far end, and count it as many characters.
        this.at++;
        this.classMember();
        wide = true;
      } else if (c === undefined) wide = true;
      else members.push(c);
    }
    if (this.source[this.at++] !== ']') throw new NeedleError(`/${this.source}/: unclosed class`);
    return wide || members.length === 0 || members.length > 8 ? WIDE : chars(members);
  }

  /** One character of a class, or undefined for a class escape (\w, \s, \p{…}) that stands for many. */
  private classMember(): string | undefined {
    const c = this.source[this.at++];
    if (c !== '\\') return c;
    const e = this.source[this.at++];
    if (!WIDE_ESCAPES.has(e)) return e === 'b' ? '\b' : this.escapedChar(e);
    this.skipProperty(e);
    return undefined;
  }

  /** After \p or \P, the {…} that names the property. */
  private skipProperty(escape: string): Node {
    if ((escape === 'p' || escape === 'P') && this.peek() === '{') this.at = this.source.indexOf('}', this.at) + 1;
    return WIDE;
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }
}

const chars = (list: string[]): Node => ({ kind: 'chars', chars: new Set(list), source: '' });
/** A wide atom before the parser notes its source. */
const WIDE: Node = { kind: 'wide', source: '' };
