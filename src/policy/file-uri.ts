import { fileURLToPath } from 'node:url';
import { printable } from './printable.js';

export type FileUri = { ok: true; href: string; path: string } | { ok: false; reason: string };

/** What a name must not carry once decoded: a separator, a query or fragment marker, NUL. */
const MARKER = /[/\\?#\0]/;
const STILL_ENCODED = /%[0-9A-Fa-f]{2}/;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The one form of a `file:` URI that is checked and forwarded: parsed as Node's `new URL` parses it (WHATWG:
 * tabs and newlines dropped, scheme and `localhost` folded, `.`, `..` and `%2e%2e` segments resolved) and its
 * path decoded exactly once, as `fileURLToPath` — which is what a server does with it — decodes it.
 *
 * A URI is refused when another reader could take it for another file: a query or fragment (a server that
 * decodes first cuts the path there), a host, or a name that decodes to a separator, a marker, NUL, a second
 * layer of percent-encoding, or that NFKC or the removal of invisible characters turns into one of those or
 * into a `.`/`..` segment.
 */
export function canonicalFileUri(raw: string): FileUri {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('it is not a valid URL');
  }
  if (url.protocol !== 'file:') return refuse(`its scheme is ${url.protocol}, not file:`);
  // In the serialised form "?" and "#" can only start a query or fragment, empty ones included.
  if (url.href.includes('?') || url.href.includes('#')) return refuse('it carries a query or fragment, which a file has not');
  if (url.hostname !== '') return refuse(`it names the host ${printable(url.hostname)}; only local files (no host, or localhost) can be checked`);
  for (const segment of url.pathname.split('/').slice(1)) {
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return refuse(`the name ${printable(segment)} is not valid percent-encoding`);
    }
    const problem = nameProblem(name);
    if (problem) return refuse(`the name ${printable(segment)} decodes to ${printable(name)}, which ${problem}`);
  }
  return { ok: true, href: url.href, path: fileURLToPath(url) };
}

/** Why a decoded name could be read as something else ("which …"), or undefined when it cannot. */
function nameProblem(name: string): string | undefined {
  if (name === '.' || name === '..') return 'is a dot segment'; // the parser resolves these; never forwarded
  const plain = markerIn(name);
  if (plain) return plain;
  for (const [how, folded] of [
    ['under NFKC', name.normalize('NFKC')],
    ['once default-ignorable characters are removed', name.replace(IGNORABLE, '')],
    ['under NFKC once default-ignorable characters are removed', name.replace(IGNORABLE, '').normalize('NFKC').replace(IGNORABLE, '')],
  ] as const) {
    if (folded === name) continue;
    const marker = folded === '.' || folded === '..' ? `is the segment "${folded}"` : markerIn(folded);
    if (marker) return `${how} ${marker}`;
  }
  return undefined;
}

function markerIn(name: string): string | undefined {
  const m = MARKER.exec(name);
  if (m) return m[0] === '\0' ? 'holds a NUL byte' : `holds ${JSON.stringify(m[0])}, a separator or a query or fragment marker`;
  if (STILL_ENCODED.test(name)) return 'is still percent-encoded (decoded again, it names another file)';
  return undefined;
}

function refuse(why: string): FileUri {
  return { ok: false, reason: `file: URI refused: ${why}` };
}
