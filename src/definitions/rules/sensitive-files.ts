import type { SentenceRule } from '../scan-engine.js';
import type { DefinitionFinding } from '../scan-types.js';
import { DESTINATION } from './exfiltration.js';
import { show } from './hidden-unicode.js';

/**
 * Sensitive files: keys, credentials and stores a tool has no business asking the model to read or pass on —
 * named in a sentence that hands them over, or preset as a schema's default.
 */

/** The paths and stores themselves: ~/.ssh keys, .env, cloud credentials, browser profiles, wallets. */
export const SENSITIVE = /(?:~|\$HOME|\/home\/\w+|\/Users\/\w+|%USERPROFILE%)?\/?\.(?:ssh\/(?:id_\w+(?!\.pub)|authorized_keys|known_hosts)?|aws\/credentials|aws\/config|env\b(?!\.(?:example|sample|template|dist))|npmrc|netrc|pgpass|docker\/config\.json|kube\/config|gnupg|git-credentials|bash_history|zsh_history)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\/etc\/(?:passwd|shadow|sudoers)|\bLibrary\/Application\s+Support\/(?:Google\/Chrome|Firefox|BraveSoftware)|\.config\/gcloud|application_default_credentials|_authToken|\brefresh_token\b|\bcookies\s+database\b|\b(?:private\s+keys?|ssh\s+keys?|api[\s_-]?keys?|access\s+tokens?|session\s+cookies?|browser\s+cookies|keychain|wallet\.dat|seed\s+phrase|recovery\s+phrase|mnemonic|wallet\s+(?:vault|file|keys?)|credentials\s+file|environment\s+variables?)\b|\b[A-Z][A-Z0-9]*_(?:TOKEN|API_KEY|KEY|SECRET|PASSWORD)\b/i;

/** The verbs of fetching something and handing it over, in any form ("reads", "embedding"). */
const HAND_OVER = /\b(?:read|cat|open|load|includ|pass|provid|attach|append|send|upload|past|cop(?:y|ie)|put|insert|add|suppl|embed|forward|collect|gather|extract|retriev|fetch|return|exfiltrat|leak|post|dump|set|value)\w*\b/i;
/** Handed to the model or out of the machine: into an argument, to an outside place, or as an order. */
const HANDED_OUT = new RegExp(String.raw`\b(?:as|in(?:to)?|inside|via|through)\s+(?:the\s+|its\s+|an?\s+)?[\`'"]?\w+[\`'"]?\s+(?:parameter|argument|field|param|arg)\b|\b(?:parameter|argument)\b|\bto\s+${DESTINATION}|\b(?:must|always|first|before|mandatory|exfiltrat\w*|embed\w*|instead|hidden|secretly|silently)\b`, 'i');
/** Into an argument or out of the machine: what a tool reading for its user never does. */
const ARGUMENT_OR_AWAY = new RegExp(String.raw`\b(?:parameter|argument|field|param)\b|\b(?:as|in(?:to)?)\s+\`\w+\`|\bto\s+${DESTINATION}|\bexfiltrat\w*|\bembed\w*`, 'i');

/** The tool's own job for the person using it: reading what they name, back to them. */
const FOR_THE_USER = /\bin\s+the\s+server(?:'s)?\s+(?:environment|config(?:uration)?|settings)\b|\b(?:the\s+user\s+(?:asks|names|gives|provides|specifies|chooses|requests|selects)|you\s+(?:name|give|provide|specify|choose)|given\s+by\s+the\s+user|user-selected|on\s+request|when\s+asked|if\s+asked|to\s+the\s+(?:caller|user)|back\s+to\s+the\s+(?:caller|user)|for\s+display|locally|local\s+ui)\b/i;

/** Sentences that name a sensitive file and hand it over: read it and pass it on, send it out, or as an order. */
export const SENSITIVE_SENTENCES: SentenceRule = {
  pattern: SENSITIVE,
  scan(parts, whereAt) {
    const findings: DefinitionFinding[] = [];
    for (const [at, s] of parts) {
      if (!SENSITIVE.test(s) || !HAND_OVER.test(s)) continue;
      // Reading a secret and handing it over — in an argument, outside, or as an order — is the classic poisoned
      // tool; a tool that reads what its user names, back to that user, is a secret manager.
      // A parameter's own description is where the value goes: naming a secret there hands it over.
      const inSchema = whereAt(at).startsWith('inputSchema');
      const away = inSchema || ARGUMENT_OR_AWAY.test(s);
      const out = away || HANDED_OUT.test(s);
      if (!away && FOR_THE_USER.test(s)) continue;
      const example = SENSITIVE.exec(s);
      if (example && /\b(?:such\s+as|e\.g\.|for\s+example|like|telling\s+(?:the\s+\w+\s+)?to|tells?\s+(?:the\s+\w+\s+)?to)\s+(?:\w+\s+){0,2}$/i.test(s.slice(Math.max(0, example.index - 50), example.index))) continue;
      if (/\bnever\s+(?:reads?|opens?|sends?|sees?)\b/i.test(s)) continue;
      findings.push({ rule: 'sensitive-file', severity: out ? 'high' : 'medium', where: whereAt(at), evidence: show(s.trim()) });
    }
    return findings;
  },
};

/** Schema values that preset a secret: a default, const or example pointing at keys or credentials. */
export function presetSecrets(texts: [string, string][]): DefinitionFinding[] {
  // Most schemas preset nothing: look no further then.
  if (!texts.some(([where]) => where.endsWith('.default') || where.endsWith('.const') || where.includes('.examples') || where.includes('.enum'))) return [];
  const about = new Map<string, string>();
  for (const [where, value] of texts) {
    const owner = /^(.*)\.(?:description|title)$/.exec(where)?.[1];
    if (owner) about.set(owner, `${about.get(owner) ?? ''} ${value}`);
  }
  // A key file as the default of a parameter that asks for a key file is a convenience; anywhere else a trap.
  const forKeys = (owner: string) => /(?:key|credential|identity|ssh|cert|auth|secret|token)/i.test(`${owner.split('.').pop()} ${about.get(owner) ?? ''}`);
  // Where results go, preset to an outside address: the tool delivers to someone the user never chose.
  const delivery = (owner: string, value: string) => /^(?:https?|s?ftp):\/\//i.test(value) && /(?:callback|webhook|upload|destination|deliver|report|notify|sink|forward)/i.test(`${owner.split('.').pop()} ${about.get(owner) ?? ''}`);
  return texts
    .filter(([where, value]) => {
      const m = /^(.*)\.(?:default|const|examples(?:\[\d+\])?|enum\[\d+\])$/.exec(where);
      const owner = m?.[1].replace(/\.examples$|\.enum$/, '') ?? '';
      return m !== null && ((SENSITIVE.test(value) && !forKeys(owner)) || delivery(owner, value));
    })
    .map(([where, value]) => ({ rule: 'sensitive-file' as const, severity: 'high' as const, where, evidence: show(value) }));
}
