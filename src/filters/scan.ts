import type { Params } from '../protocol/jsonrpc.js';
import { DETECTORS, type Category } from './detectors.js';
import { normalise } from './normalise.js';

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

/** Scans one string; redacts the categories whose action is `redact`. */
export function scanText(original: string, actions: FilterActions): TextScan {
  const text = normalise(original);
  const findings: Finding[] = [];
  let out = text;
  // Cheap tests first: most text has no candidate at all for most detectors, and a substring test over the
  // text costs a fraction of running the regex.
  const hasDigit = /\d/.test(text);
  let lower: string | undefined;
  for (const d of DETECTORS) {
    if (actions[d.category] === 'off' || (d.needs !== undefined && !text.includes(d.needs)) || (d.needsDigit && !hasDigit)) continue;
    if (d.needsWord) {
      lower ??= text.toLowerCase();
      if (!d.needsWord.some((w) => lower!.includes(w))) continue;
    }
    d.pattern.lastIndex = 0;
    let redacted = false;
    for (const m of text.matchAll(d.pattern)) {
      if (d.valid && !d.valid(m[0])) continue;
      findings.push({ category: d.category, kind: d.kind });
      redacted ||= actions[d.category] === 'redact';
    }
    if (redacted) out = out.replace(d.pattern, (m) => (d.valid && !d.valid(m) ? m : `[REDACTED:${d.kind}]`));
  }
  return { text: findings.length === 0 ? original : out, findings };
}

export interface PayloadScan {
  value: Params;
  findings: Finding[];
}

/**
 * Scans every piece of text a result carries — text blocks, embedded resource text, structured content,
 * resource contents, prompt messages — and returns the result with redactions applied. Binary content
 * (images, audio, blobs) is passed through: there is no text to scan in it.
 */
export function scanPayload(result: Params, actions: FilterActions): PayloadScan {
  const findings: Finding[] = [];
  if (actions.secret === 'off' && actions.pii === 'off' && actions.injection === 'off') return { value: result, findings };
  const visit = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      // Base64 payloads and URIs are not prose; scanning them finds nothing and costs much.
      if (key === 'blob' || key === 'data' || key === 'uri' || key === 'mimeType' || key === 'type') return value;
      const scanned = scanText(value, actions);
      if (scanned.findings.length > 0) findings.push(...scanned.findings);
      return scanned.text;
    }
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
      let out: Record<string, unknown> | undefined;
      for (const [k, v] of Object.entries(value)) {
        if (k === '_meta') continue;
        const r = visit(v, k);
        if (r !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = r;
      }
      return out ?? value;
    }
    return value;
  };
  return { value: visit(result) as Params, findings };
}
