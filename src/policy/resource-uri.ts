import { canonicalFileUri } from './file-uri.js';
import { pathMatches } from './paths.js';
import { printable } from './printable.js';

/** A resource URI as the rules see it and as it goes to the upstream. */
export interface ResourceUri {
  /** What the upstream is sent: a `file:` URI in its canonical form, any other URI as the client sent it. */
  forward: string;
  /** Every spelling a deny rule is tried against: deny wins if any of them matches. */
  denyForms: string[];
  /** The spellings an allow rule is tried against, and whether one or all of them must match. */
  allowForms: string[];
  allowNeeds: 'any' | 'every';
  /** For a `file:` URI, the path the upstream opens (its path decoded once). */
  path?: string;
}

export type ResourceUriCheck = { ok: true; uri: ResourceUri } | { ok: false; reason: string };

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * Works out once what a `resources/read` URI means to the rules and to the upstream. A `file:` URI is parsed,
 * resolved and forwarded in its canonical form (see `canonicalFileUri`), so the file checked is the file read.
 * Any other URI goes on as sent — its server alone knows what it means — so rules match it under every spelling
 * that could mean the same thing (scheme and host in lower case, percent-escapes of ordinary characters
 * decoded), and one with a `.` or `..` segment, plain, encoded or as a look-alike, is refused: servers
 * disagree on what those resolve to.
 */
export function resourceUri(raw: string): ResourceUriCheck {
  // As a WHATWG parser reads it: tabs and newlines anywhere, and C0 controls and spaces around, do not count.
  const trimmed = raw.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
  if (/^file:/i.test(trimmed)) {
    const file = canonicalFileUri(raw);
    if (!file.ok) return file;
    const decoded = `file://${file.path}`;
    return {
      ok: true,
      uri: { forward: file.href, denyForms: unique([raw, file.href, decoded, ...folded(decoded)]), allowForms: unique([decoded, file.href]), allowNeeds: 'any', path: file.path },
    };
  }
  const canonical = lowerSchemeAndHost(decodeOrdinary(trimmed));
  const decoded = lowerSchemeAndHost(decodeAll(trimmed));
  for (const spelling of [decoded, ...folded(decoded)]) {
    const dots = spelling.split(/[/\\]/).find((segment) => segment === '.' || segment === '..');
    if (dots) return { ok: false, reason: `resource URI ${printable(raw)} has a "${dots}" segment${spelling === decoded ? '' : ' once normalised'}; servers disagree on what it resolves to` };
  }
  return { ok: true, uri: { forward: raw, denyForms: unique([raw, canonical, decoded, ...folded(decoded)]), allowForms: unique([canonical, decoded]), allowNeeds: 'every' } };
}

/** The first of `globs` that denies the URI under any of its spellings. */
export function deniedBy(globs: readonly string[], uri: ResourceUri): string | undefined {
  if (globs.length === 0) return undefined;
  const normal = globs.map(lowerSchemeAndHost);
  for (const form of uri.denyForms) {
    const i = normal.findIndex((g) => pathMatches([g], form));
    if (i !== -1) return globs[i];
  }
  return undefined;
}

/** Whether `globs` allow the URI: one matching glob for one spelling, or for every one, as the URI needs. */
export function allowedBy(globs: readonly string[], uri: ResourceUri): boolean {
  const normal = globs.map(lowerSchemeAndHost);
  const matches = (form: string) => pathMatches(normal, form) !== undefined;
  return uri.allowNeeds === 'any' ? uri.allowForms.some(matches) : uri.allowForms.every(matches);
}

/** Scheme and authority in lower case (they are case-insensitive); path and query as they are. */
function lowerSchemeAndHost(uri: string): string {
  return uri.replace(/^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/[^/?#]*)?/, (head) => head.toLowerCase());
}

/**
 * Percent-escapes decoded where that cannot change what the URI says: to unreserved ASCII and to printable
 * non-ASCII characters. Escapes of delimiters (`/`, `?`, `#`, `%` …) and controls stay, in upper case.
 */
function decodeOrdinary(uri: string): string {
  return uri.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    let text: string;
    try {
      text = decodeURIComponent(run);
    } catch {
      return run.toUpperCase();
    }
    return [...text].map((c) => (UNRESERVED.test(c) || (c > '\x7f' && !/[\p{C}\p{Z}]/u.test(c)) ? c : encodeURIComponent(c).toUpperCase())).join('');
  });
}

/** Every escape decoded, as a server that decodes the whole URI would read it. */
function decodeAll(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return decodeOrdinary(uri);
  }
}

/** The spellings a normalising reader could turn the text into. */
function folded(text: string): string[] {
  const bare = text.replace(IGNORABLE, '');
  return [text.normalize('NFKC'), bare, bare.normalize('NFKC')].filter((f) => f !== text);
}

const unique = (forms: string[]) => [...new Set(forms)];
