import { countTokens, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { ServerOffer } from './servers.js';

/** Where the model reads a server's instructions whole when the system prompt carries them cut. */
export const INSTRUCTIONS_URI = 'sluice-agent://instructions/';

/** Tokens of one server's instructions in the system prompt, at most (default). */
export const DEFAULT_NOTES_BUDGET = 300;

export interface ServerNotes {
  /** The system prompt's "Server notes" section, or '' when no server gave instructions. */
  text: string;
  tokens: number;
  /** Servers whose instructions were cut, with the whole text (readable through read_resource). */
  cut: Map<string, string>;
}

/**
 * The servers' instructions for the system prompt, each bounded by `perServer` tokens so a talkative server
 * cannot crowd out the catalog; a cut one ends with a note saying where to read the rest. They count against
 * the prompt's budget like the catalog does.
 */
export function serverNotes(offers: readonly ServerOffer[], perServer: number): ServerNotes {
  const cut = new Map<string, string>();
  const sections = offers
    .filter((o) => o.instructions?.trim())
    .map((o) => {
      const whole = o.instructions!.trim();
      const tokens = encode(whole);
      if (tokens.length <= perServer) return `### ${o.name}\n${whole}`;
      cut.set(o.name, whole);
      const head = decode(tokens.slice(0, perServer));
      const atWord = head.replace(/\s+\S*$/, '');
      return `### ${o.name}\n${atWord} … [cut at ${perServer} of ${tokens.length} tokens; read_resource("${INSTRUCTIONS_URI}${o.name}") gives them whole]`;
    });
  if (sections.length === 0) return { text: '', tokens: 0, cut };
  const text = `## Server notes\n${sections.join('\n')}`;
  return { text, tokens: countTokens(text), cut };
}
