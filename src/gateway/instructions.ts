import type { Upstream } from '../upstream/upstream.js';

/** What sluice says of itself, first in every instructions text. */
export const SLUICE_INSTRUCTIONS =
  'sluice is an MCP gateway: the tools and prompts of several servers, each named with its server\'s prefix; resources keep the URIs of the servers that own them.';

/** Each server's share, and the whole text: enough for real instructions, bounded against a server that floods it. */
const PER_SERVER = 4_000;
const TOTAL = 16_000;

/**
 * The instructions a client gets: sluice's own, then each ready upstream's under its server name, in config
 * order — upstream instructions often say how to use that server's tools, and would otherwise never reach the
 * client. Instructions the definition guard holds back are left out. Cut with a note where a server's (or the whole) text is too long.
 */
export function mergedInstructions(upstreams: readonly Upstream[], held: ReadonlySet<string>): string {
  let out = SLUICE_INSTRUCTIONS;
  for (const u of upstreams) {
    if (u.state !== 'ready' || !u.instructions?.trim() || held.has(u.name)) continue;
    const text = u.instructions.trim();
    const part = text.length > PER_SERVER ? `${text.slice(0, PER_SERVER)}\n[… ${text.length - PER_SERVER} more characters of ${u.name}'s instructions cut]` : text;
    const section = `\n\n## ${u.name} (tools and prompts prefixed ${u.config.prefix === '' ? 'with nothing' : `"${u.config.prefix}"`})\n${part}`;
    if (out.length + section.length > TOTAL) return `${out}\n\n[instructions of further servers cut: the whole text is limited to ${TOTAL} characters]`;
    out += section;
  }
  return out;
}
