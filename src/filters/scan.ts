import type { Params } from '../protocol/jsonrpc.js';
import { DETECTORS, type Category, type Detector } from './detectors.js';
import { normalise } from './normalise.js';
import { hasDigit as digitIn, probe, type Probe } from './probes.js';

export interface Finding {
  category: Category;
  kind: string;
}

/** What to do with a finding; `off` skips the category's detectors altogether. */
export type FilterAction = 'redact' | 'block' | 'label' | 'off';
export type FilterActions = Record<Category, FilterAction>;

interface TextScan {
  /** The text to pass on: unchanged when nothing was found, else normalised with redactions applied. */
  text: string;
  findings: Finding[];
}

interface Found {
  start: number;
  end: number;
  kind: string;
  redact: boolean;
}

// The shortest text any detector matches (`a@b.co`, `[INST]`): shorter strings, most keys and ids, skip the loop.
const SHORTEST = 6;

interface Prepared {
  detector: Detector;
  /** The detector's `needs` and `needsWord`, as lists: what short text is searched for, needle by needle. */
  needs?: readonly string[];
  words?: readonly string[];
  /** The same tests for long text (probes.ts): by rare characters and tails, which pays once text is long. */
  needsProbe?: Probe;
  wordsProbe?: Probe;
}

const PREPARED: readonly Prepared[] = DETECTORS.map((d) => {
  const needs = d.needs === undefined ? undefined : typeof d.needs === 'string' ? [d.needs] : d.needs;
  return { detector: d, needs, words: d.needsWord, needsProbe: needs && probe(needs), wordsProbe: d.needsWord && probe(d.needsWord) };
});

/** From this length on, text is tested with the probes; below it, the plain searches cost less than calling them. */
const LONG_TEXT = 1024;

const containsAny = (text: string, needles: readonly string[]) => {
  for (const n of needles) if (text.includes(n)) return true;
  return false;
};

/** Scans one string; redacts the categories whose action is `redact`. */
export function scanText(original: string, actions: FilterActions): TextScan {
  const text = normalise(original);
  const findings: Finding[] = [];
  if (text.length < SHORTEST) return { text: original, findings };
  const found: Found[] = [];
  // Cheap tests first: most text has no candidate at all for most detectors, and a substring test over the
  // text costs a fraction of running the regex.
  const long = text.length >= LONG_TEXT;
  let hasDigit: boolean | undefined;
  let lower: string | undefined;
  for (const p of PREPARED) {
    const d = p.detector;
    if (actions[d.category] === 'off') continue;
    if (p.needs && !(long ? p.needsProbe!(text) : containsAny(text, p.needs))) continue;
    if (d.needsDigit && !(hasDigit ??= long ? digitIn(text) : /\d/.test(text))) continue;
    if (p.words) {
      lower ??= text.toLowerCase();
      if (!(long ? p.wordsProbe!(lower) : containsAny(lower, p.words))) continue;
    }
    const redact = actions[d.category] === 'redact';
    const re = d.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0] === '') {
        re.lastIndex++; // no detector matches nothing, but a loop must not hang on one that would
        continue;
      }
      const span = d.locate ? d.locate(m[0]) : [0, m[0].length];
      if (span === undefined) continue;
      const start = m.index + span[0];
      const end = m.index + span[1];
      // What follows a value shorter than its match (an IBAN and the next word) may begin the next one.
      if (end > m.index && end < re.lastIndex) re.lastIndex = end;
      // A value inside one found already is part of it: the `user@host` of a connection string is no address.
      if (found.some((f) => f.start <= start && end <= f.end)) continue;
      findings.push({ category: d.category, kind: d.kind });
      found.push({ start, end, kind: d.kind, redact });
    }
  }
  if (findings.length === 0) return { text: original, findings };
  const redactions = found.filter((f) => f.redact);
  return { text: redactions.length === 0 ? text : applyRedactions(text, redactions), findings };
}

/** Replaces each redacted span by its label; overlapping spans become one. */
function applyRedactions(text: string, redactions: Found[]): string {
  redactions.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (let i = 0; i < redactions.length; ) {
    const first = redactions[i];
    let end = first.end;
    for (i++; i < redactions.length && redactions[i].start < end; i++) end = Math.max(end, redactions[i].end);
    out += `${text.slice(at, first.start)}[REDACTED:${first.kind}]`;
    at = end;
  }
  return out + text.slice(at);
}

export interface PayloadScan {
  value: Params;
  findings: Finding[];
}

// Base64, with the line breaks of MIME: what binary content is made of.
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;

/**
 * The key of an object's binary payload: image and audio data, blob resource contents. Base64 is not prose:
 * scanning it finds nothing and costs much (and a match in it would be noise that redaction would corrupt).
 */
function binaryKey(o: Record<string, unknown>): string | undefined {
  if (o.type === 'image' || o.type === 'audio') return 'data';
  return typeof o.uri === 'string' && 'blob' in o ? 'blob' : undefined;
}

/** Names under which a value is a secret that only its name gives away (`{"SecretAccessKey": "…"}`). */
const SECRET_NAME = /secret/i;

export interface PayloadOptions {
  /**
   * Base64 under a binary key (image and audio `data`, a resource's `blob`): `skip` (the default) passes it
   * through, as it should for what comes back from a server; `scan` reads it like any text, as it must for what
   * goes out — a client may put a secret, itself base64-alphabet text, where an image's data belongs.
   */
  binary?: 'skip' | 'scan';
}

/**
 * Scans every piece of text a result carries — text blocks, embedded resource text, structured content (its keys
 * too), resource contents, prompt messages, URIs, `_meta` — and returns the result with redactions applied. Binary
 * content (images, audio, blobs) is passed through when it is base64, unless `options.binary` says to scan it.
 * Anything else is scanned whatever its key: a secret under `data` or `type` in structured content or arguments is
 * still a secret.
 */
export function scanPayload(result: Params, actions: FilterActions, options: PayloadOptions = {}): PayloadScan {
  const findings: Finding[] = [];
  if (actions.secret === 'off' && actions.pii === 'off' && actions.injection === 'off') return { value: result, findings };
  const scanString = (s: string, name?: string): string => {
    // After its name, as it would stand in text, where the name is what marks the value as a secret.
    const prefix = name !== undefined && SECRET_NAME.test(name) ? `${name}=` : '';
    const scanned = scanText(prefix + s, actions);
    if (scanned.findings.length === 0) return s;
    findings.push(...scanned.findings);
    const kept = normalise(prefix);
    return prefix !== '' && scanned.text.startsWith(kept) ? scanned.text.slice(kept.length) : scanned.text;
  };
  const visit = (value: unknown, name?: string, binary = false): unknown => {
    if (typeof value === 'string') return binary && BASE64.test(value) ? value : scanString(value, name);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const r = visit(v);
        changed ||= r !== v;
        return r;
      });
      return changed ? out : value;
    }
    if (value !== null && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      const skip = options.binary === 'scan' ? undefined : binaryKey(o);
      const entries = Object.entries(o);
      let changed = false;
      for (const entry of entries) {
        const [k, v] = entry;
        // Keys are data too: a map keyed by address, a secret as a property name.
        const key = scanString(k);
        const r = visit(v, k, k === skip);
        if (key !== k || r !== v) [entry[0], entry[1], changed] = [key, r, true];
      }
      return changed ? fromEntries(entries) : value;
    }
    return value;
  };
  return { value: visit(result) as Params, findings };
}

/** An object of these entries; two keys that redact alike both stay, the second numbered. */
function fromEntries(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    let key = k;
    for (let n = 2; Object.hasOwn(out, key); n++) key = `${k} #${n}`;
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
