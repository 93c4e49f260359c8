import type { DefinitionFinding, ProseScan, WhereAt } from '../scan-types.js';
import { embeddedSecrets } from './embedded-secrets.js';
import { show } from './hidden-unicode.js';
import { SENSITIVE } from './sensitive-files.js';

/**
 * Encoded payloads: base64, hex, \x and %-escapes that a model can decode and a person reading the definition
 * cannot. What decodes to words is scanned like any prose, and held back if it addresses the model or runs shell.
 */

/** Decoded words addressed to the model or about the user: a sentence no encoded setting needs to hold. */
const ADDRESSED = /\b(?:the\s+user|you|your|call\s+this\s+tool|this\s+tool|assistant|ignore|instructions?|password|secret|token|credentials?|send|upload|run\s+any)\b/i;

/** Shell that a decoded "config value" should never be. */
const SHELL = /\b(?:rm\s+-[rf]+|chmod\s+[+0-7]|chown\s|curl\s|wget\s|bash\b|sh\s+-[ci]\b|\/bin\/(?:ba)?sh\b|nc\s+-|netcat\b|\/dev\/tcp\/|eval\s*\(|exec\s*\(|powershell\b|base64\s+-d|mkfifo\b|\|\s*(?:ba)?sh\b)/i;

/** Base64, hex and %-encoded runs that decode to readable text are decoded and scanned; binary is ignored. */
export function encodedPayloads(text: string, whereAt: WhereAt, scanProse: ProseScan): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  const decoded: [number, string][] = [];
  // Runs of the base64 alphabets, found by one split rather than a regex tried at every word.
  let at = 0;
  // Most text has no run of twenty such characters at all: one native search rules it out before any split.
  for (const run of /[A-Za-z0-9+/_-]{20}/.test(text) ? text.split(/([^A-Za-z0-9+/_-]+)/) : []) {
    const start = at;
    at += run.length;
    // Encoded text of twenty characters or more has a digit or a symbol of the alphabet; words and names do not.
    if (run.length < 20 || !/[0-9+/]/.test(run) || /^[a-z]+(?:[_-][a-z0-9]+)*$/.test(run)) continue;
    // An integrity-style prefix ("sha384-…") is not part of the encoding.
    const body = run.replace(/^(?:sha\d+|md5|b64|base64)[-:]/i, '');
    const hex = /^(?:0x)?((?:[0-9a-fA-F]{2}){12,})$/.exec(body);
    let d = readable(hex ? Buffer.from(hex[1], 'hex') : Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64'));
    // Encoded twice: what decodes to base64 again is decoded once more.
    if (d && /^[A-Za-z0-9+/]{20,}={0,2}$/.test(d.trim())) d = readable(Buffer.from(d.trim(), 'base64')) ?? d;
    if (d) decoded.push([start, d]);
  }
  for (const m of text.includes('\\x') ? text.matchAll(/(?:\\x[0-9a-fA-F]{2}){6,}/g) : []) {
    decoded.push([m.index, m[0].replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))]);
  }
  for (const m of text.includes('%') ? text.matchAll(/(?:%[0-9a-fA-F]{2}[^\s%]{0,3}){6,}/g) : []) {
    try {
      decoded.push([m.index, decodeURIComponent(m[0])]);
    } catch {
      // Not valid percent-encoding: nothing to read.
    }
  }
  for (const [at, d] of decoded) {
    const where = whereAt(at);
    const inner = scanProse(d, () => `${where} (decoded)`);
    const secret = embeddedSecrets(d, () => `${where} (decoded)`);
    if (inner.length > 0 || secret.length > 0 || SENSITIVE.test(d) || SHELL.test(d) || /https?:\/\//.test(d) || ADDRESSED.test(d)) {
      findings.push({ rule: 'encoded-payload', severity: 'high', where, evidence: `decodes to: ${show(d)}` }, ...inner);
    }
  }
  return findings;
}

/** Decoded bytes that are mostly printable text of a few words; undefined for binary (hashes, keys, images). */
function readable(bytes: Buffer): string | undefined {
  if (bytes.length < 8) return undefined;
  const text = bytes.toString('utf8');
  const printable = [...text].filter((c) => /[\x20-\x7E\n\t]/.test(c)).length;
  if (printable / text.length < 0.95) return undefined;
  return /[a-z]{2,}[\s/]/i.test(text) || /^[A-Za-z0-9+/]{20,}={0,2}$/.test(text.trim()) ? text : undefined;
}
