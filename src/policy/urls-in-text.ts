import { parserInput, TAB_OR_NEWLINE } from '../urls/parser-input.js';

/**
 * Which strings under keys that are not URL keys count:
 * - `off`: none;
 * - `values` (the default): a whole value that is an absolute URL (`q: "http://169.254.169.254/"`);
 * - `embedded`: also every URL inside longer text (`q: "fetch http://169.254.169.254/ now"`).
 * `embedded` is not the default because content — a file being written, a message being sent — mentions
 * `http://localhost:3000` or `postgres://db/app` without asking anyone to fetch it; turn it on for roles
 * whose tools read instructions out of free text (a browsing agent, a "do this" tool).
 */
export type FreeText = 'off' | 'values' | 'embedded';

/** The URLs found in one string; `complete` is false when it holds more than can be checked (see urlsAnywhere). */
export interface TextUrls {
  urls: string[];
  complete: boolean;
}

/** Schemes the WHATWG parser reads with any number of slashes or backslashes, even none (`http:evil.example`). */
const SPECIAL = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);
/** A scheme of two letters or more (one letter is a Windows drive), its colon and whatever slashes follow. */
const HEAD = /([a-z][a-z0-9+.-]+):([\\/]*)/iy;
// Where a removed newline joins runs of letters, a scheme may begin inside a run: there it is capped at 64
// characters, so that a long run costs one look and not one per letter. Elsewhere a scheme begins only where
// a run does, and each run is read once.
const HEAD_IN_RUN = /([a-z][a-z0-9+.-]{1,63}):([\\/]*)/iy;
/** Where a scheme may begin in running text: no scheme character before it. */
const SCHEME_START = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]+:/gi;
const SCHEME_CHAR = /[a-z0-9+.-]/i;
/** A URL in text runs to white space, a quote or an angle bracket… */
const TAIL = /[^\s<>"'`]*/y;
/** …less the punctuation that ends the sentence around it. */
const TRAILING = new Set('.,;:!?)]}*');
const NONE: TextUrls = { urls: [], complete: true };

/**
 * Absolute URLs in a string. `values`: the string itself when, as a parser reads it (see parserInput), it
 * starts with one — the whole value if it parses, else the URLs in it; `embedded`: every URL anywhere in it,
 * URLs inside URLs' queries included.
 */
export function urlsInText(text: string, mode: FreeText): TextUrls {
  if (mode === 'off') return NONE;
  if (mode === 'values') {
    const whole = parserInput(text);
    const h = headAt(whole, 0, HEAD);
    if (!h || tailEnd(whole, h.headEnd, whole.length) === h.headEnd) return NONE;
    if (URL.canParse(whole)) return { urls: [whole], complete: true };
  }
  return urlsAnywhere(text);
}

// Each URL in text runs to the next white space, so URLs inside URLs (`http://a/http://a/…`) make the total
// length to check grow with the square of the text's. Past this budget the text is not looked at further and
// the caller refuses it: a few levels of nesting in real text stay far below it.
const BUDGET_FLOOR = 64 * 1024;
const BUDGET_PER_CHAR = 4;

/**
 * Every URL in free text, read two ways: as written, where a URL ends at white space (as a link finder reads
 * it), and with tabs and newlines removed (as a parser handed the text, or a model, reads it:
 * `ht\ttp://127.0.0.1/`). In the second reading a scheme may also begin where a newline was — `here\nhttp://x`
 * is not the scheme `herehttp:` — and a scheme that a removed character joins counts only when fetch tools
 * know it (http, https, ws, wss, ftp, file); a URL runs on across a removed character unless another URL
 * begins there, so a list of URLs, one a line, stays a list.
 */
function urlsAnywhere(text: string): TextUrls {
  const found = new Found(BUDGET_FLOOR + BUDGET_PER_CHAR * text.length);
  const complete = readAsWritten(text, found) && (!TAB_OR_NEWLINE.test(text) || readJoined(text, found));
  return { urls: [...found.urls], complete };
}

/** The URLs found so far, and what is left of the budget. */
class Found {
  readonly urls = new Set<string>();
  constructor(private budget: number) {}

  /** Takes text[start, end) as a URL when it has more than its head; false once the budget is spent. */
  take(text: string, start: number, headEnd: number, end: number): boolean {
    this.budget -= end - start;
    if (this.budget < 0) return false;
    if (end > headEnd) this.urls.add(text.slice(start, end));
    return true;
  }
}

function readAsWritten(text: string, found: Found): boolean {
  for (const start of schemeStarts(text)) {
    const h = headAt(text, start, HEAD);
    if (h && !found.take(text, start, h.headEnd, tailEnd(text, h.headEnd, text.length))) return false;
  }
  return true;
}

function readJoined(text: string, found: Found): boolean {
  const pieces = text.split(/[\t\n\r]+/);
  const joined = pieces.join('');
  // Where each removed run was, in the joined text, ascending.
  const joins: number[] = [];
  for (let i = 0, at = 0; i < pieces.length - 1; i++) joins.push((at += pieces[i].length));
  // A scheme can begin at a join only with its colon close after it; most joins in text have none near, and
  // passing over them keeps a long text of short lines cheap.
  let colon = -1;
  const colonSoon = (j: number) => {
    if (colon < j) {
      const at = joined.indexOf(':', j);
      colon = at === -1 ? Infinity : at;
    }
    return colon - j <= 64;
  };
  const joinStarts = joins.filter((j) => j < joined.length && colonSoon(j));
  const urlJoins = joinStarts.filter((j) => beginsUrl(joined, j));
  const starts = [...schemeStarts(joined), ...joinStarts].sort((a, b) => a - b);
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i];
    if (start === starts[i - 1]) continue;
    const h = headAt(joined, start, start > 0 && SCHEME_CHAR.test(joined[start - 1]) ? HEAD_IN_RUN : HEAD);
    if (!h) continue;
    const joinAfter = joins[firstAtOrAfter(joins, start + 1)] ?? Infinity;
    if (joinAfter <= h.headEnd && !SPECIAL.has(h.scheme.toLowerCase())) continue;
    const limit = urlJoins[firstAtOrAfter(urlJoins, h.headEnd)] ?? joined.length;
    if (!found.take(joined, start, h.headEnd, tailEnd(joined, h.headEnd, limit))) return false;
  }
  return true;
}

function* schemeStarts(text: string): Generator<number> {
  const re = new RegExp(SCHEME_START);
  for (let m = re.exec(text); m; m = re.exec(text)) yield m.index;
}

/** The scheme beginning at `start` and where it ends with its colon and slashes, when a URL may follow: a special scheme, or `//`. */
function headAt(text: string, start: number, head: RegExp): { scheme: string; headEnd: number } | undefined {
  head.lastIndex = start;
  const m = head.exec(text);
  if (!m) return undefined;
  const [, scheme, slashes] = m;
  return slashes.length >= 2 || SPECIAL.has(scheme.toLowerCase()) ? { scheme, headEnd: head.lastIndex } : undefined;
}

/** Where the URL whose head ends at `headEnd` ends, reading no further than `limit`; `headEnd` when nothing follows its head. */
function tailEnd(text: string, headEnd: number, limit: number): number {
  let end: number;
  if (limit === text.length) {
    TAIL.lastIndex = headEnd;
    TAIL.exec(text);
    end = TAIL.lastIndex;
  } else {
    end = headEnd + TAIL_ANYWHERE.exec(text.slice(headEnd, limit))![0].length;
  }
  // A loop, not `[.,…]+$`: that is quadratic on a long run of dots.
  while (end > headEnd && TRAILING.has(text[end - 1])) end--;
  return end;
}
const TAIL_ANYWHERE = new RegExp(`^${TAIL.source}`);

/** Whether a URL begins at `at`: a head, then something other than closing punctuation before the white space. */
function beginsUrl(text: string, at: number): boolean {
  const h = headAt(text, at, HEAD_IN_RUN);
  if (!h) return false;
  let i = h.headEnd;
  while (i < text.length && TRAILING.has(text[i])) i++;
  return i < text.length && !/[\s<>"'`]/.test(text[i]);
}

/** The index of the first element of ascending `list` that is at least `value` (list.length when none is). */
function firstAtOrAfter(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
