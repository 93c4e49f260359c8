import { IBAN_LENGTHS, ibanValid, luhnValid } from './checksums.js';

export type Category = 'secret' | 'pii' | 'injection';

/** Where a value lies within a pattern's match: from `start` up to, not including, `end`. */
export type Span = readonly [start: number, end: number];

export interface Detector {
  category: Category;
  kind: string;
  pattern: RegExp;
  /**
   * Where the value is in a match, for kinds the pattern alone cannot pin down (checksums, reserved ranges, a length
   * known per country), or undefined when the match holds none. Without it the whole match is the value.
   */
  locate?: (match: string) => Span | undefined;
  /** Substrings of which every match contains one: text with none of them skips the regex entirely (the common case). */
  needs?: string | readonly string[];
  /** Lower-case words of which every match contains one (checked against the lower-cased text, after `needs`). */
  needsWord?: readonly string[];
  /** Every match contains a digit: prose without digits skips the regex. */
  needsDigit?: boolean;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');
const whole = (m: string): Span => [0, m.length];

/**
 * Whether a number of this length can be a card of its major industry identifier (the first digit): 2 to 6 are the
 * card schemes' (13 to 19 digits); 1 is UATP's (15), 8 RuPay's 81 and 82 and 9 Troy's (16); 0 and 7 issue no cards.
 * That keeps out the digit runs text is full of: millisecond timestamps (13 digits from 1), 64-bit limits.
 */
function cardShaped(d: string): boolean {
  if (d.length < 13 || d.length > 19) return false;
  switch (d[0]) {
    case '0':
    case '7':
      return false;
    case '1':
      return d.length === 15;
    case '8':
    case '9':
      return d.length === 16;
    default:
      return true;
  }
}

/**
 * A card number: the right length for its first digit, and Luhn. Printed numbers may run into what follows them on a
 * card — `4111 1111 1111 1111 123` with its security code — so a grouped match whose last group spoils the checksum
 * is tried without it.
 */
const LAST_GROUP = /[ -]\d+$/;
function locateCard(m: string): Span | undefined {
  const ok = (s: string) => {
    const d = digitsOf(s);
    return cardShaped(d) && luhnValid(d);
  };
  if (ok(m)) return whole(m);
  const cut = m.search(LAST_GROUP);
  return cut > 0 && ok(m.slice(0, cut)) ? [0, cut] : undefined;
}

/** An IBAN is as long as its country says: that tells where it ends when more letters or digits follow a space. */
function locateIban(m: string): Span | undefined {
  const length = IBAN_LENGTHS[m.slice(0, 2)];
  if (length === undefined) return undefined;
  let seen = 0;
  let end = 0;
  while (end < m.length && seen < length) if (m[end++] !== ' ') seen++;
  if (seen < length || (end < m.length && m[end] !== ' ')) return undefined;
  return ibanValid(m.slice(0, end)) ? [0, end] : undefined;
}

/** Ten to fifteen digits, as E.164 allows with the country code. */
function locatePhone(m: string): Span | undefined {
  const n = digitsOf(m).length;
  return n >= 10 && n <= 15 ? whole(m) : undefined;
}

/**
 * What the content filters look for. Each pattern is global and runs over normalised text (see normalise.ts).
 * Patterns are anchored on the distinctive shape of each kind so that ordinary prose does not trip them.
 *
 * A pattern never ends in `\b` after a class that holds non-word characters: there is no word boundary after a
 * value ending in `/`, `+`, `-` or `=`, so such a value would be missed or cut short. Variable-length tokens take the
 * longest run of their alphabet instead; fixed-length ones end in a look-ahead for their own alphabet.
 */
export const DETECTORS: readonly Detector[] = [
  // Secrets
  { category: 'secret', kind: 'private-key', needs: 'PRIVATE KEY', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  // Key ids are base32 after the prefix and one in 28 has no digit, so the prefixes are the cheap test, not a digit.
  { category: 'secret', kind: 'aws-access-key-id', needs: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    category: 'secret',
    kind: 'aws-secret-access-key', needs: [':', '='], needsWord: ['secret'],
    // After its name as the credentials file, the environment, `aws sts` JSON and the SDKs spell it, quoted or not,
    // JSON-escaped or not; 40 base64 characters, which may end in `/` or `+`.
    pattern: /(?<![A-Za-z0-9])(?:(?:aws_?)?secret_?access_?key|aws_?secret_?key)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?[A-Za-z0-9/+]{40}[A-Za-z0-9/+=]*/gi,
  },
  { category: 'secret', kind: 'github-token', needs: '_', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g },
  // The routable form (GitLab 17) adds `.01.` and a checksum after the payload.
  { category: 'secret', kind: 'gitlab-token', needs: 'glpat-', pattern: /\bglpat-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*/g },
  { category: 'secret', kind: 'slack-token', needs: 'xox', pattern: /\bxox[abeposr]-[A-Za-z0-9-]{10,}/g },
  { category: 'secret', kind: 'stripe-key', needs: '_', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { category: 'secret', kind: 'google-api-key', needs: 'AIza', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { category: 'secret', kind: 'openai-key', needs: 'sk-', pattern: /\bsk-[A-Za-z0-9_-]{20,}/g },
  { category: 'secret', kind: 'npm-token', needs: 'npm_', pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  // The signature is empty in an unsecured JWT (`alg: none`). `.eyJ` is rarer in text than `eyJ`, so a cheaper test.
  { category: 'secret', kind: 'jwt', needs: '.eyJ', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  // A driver may follow the scheme (`postgresql+asyncpg`); Redis URLs often carry a password and no user.
  { category: 'secret', kind: 'connection-string', needs: '://', pattern: /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb|rediss?|amqps?|mssql|sqlserver)(?:\+[a-z0-9]+)?:\/\/[^\s:/@]*:[^\s@/]+@[^\s/]+/gi },
  { category: 'secret', kind: 'azure-key', needs: 'Key=', pattern: /\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/=]{30,}/g },
  // The scheme is case-insensitive (RFC 9110), and lower-case `bearer` is common.
  { category: 'secret', kind: 'bearer-token', needsWord: ['bearer'], pattern: /\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*/gi },
  // Personal data
  // Not inside a longer run of address characters, nor right after `//` (the user of a URL, `ssh://git@host`).
  { category: 'pii', kind: 'email', needs: '@', pattern: /(?<![A-Za-z0-9._%+-]|\/\/)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g },
  {
    category: 'pii',
    kind: 'card-number', needsDigit: true,
    // Unbroken, or in the groups cards are printed in (4-4-4-4, 4-6-5, 4-4-4-4-3…) with one separator throughout.
    pattern: /\b(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}(?:\1\d{1,4}(?:\1\d{1,3})?)?|\d{4}([ -])\d{6}\2\d{4,5})\b/g,
    locate: locateCard,
  },
  { category: 'pii', kind: 'iban', needsDigit: true, pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g, locate: locateIban },
  { category: 'pii', kind: 'us-ssn', needsDigit: true, needs: '-', pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  { category: 'pii', kind: 'uk-nino', needsDigit: true, pattern: /\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g },
  // International: `+`, then groups as the country writes them, or E.164 unbroken. Not inside a longer run of digit
  // groups (a card number is not three phone numbers).
  { category: 'pii', kind: 'phone', needs: '+', pattern: /(?<!\w|\d[ .-])\+[1-9]\d{0,14}(?:[ .-]?\(\d{1,5}\)[ .-]?\d{1,8}|[ .-]\d{1,8}){0,6}\b(?![ .-]\d)/g, locate: locatePhone },
  // National: US `1-800-…`, a trunk 0 (`07911 123456`, `030 12345678`), or three groups.
  {
    category: 'pii',
    kind: 'phone', needsDigit: true,
    pattern: /(?<!\w|\d[ .-])(?:1[ .-]\d{3}[ .-]\d{3}[ .-]\d{4}|0\d{2,4}[ .-]\d{6,8}|(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4})\b(?![ .-]\d)/g,
    locate: locatePhone,
  },
  // Prompt injection
  {
    category: 'injection',
    kind: 'override-instructions', needsWord: ['ignore', 'disregard', 'forget', 'override'],
    pattern: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions|prompts?|rules|directions|messages)\b/gi,
  },
  { category: 'injection', kind: 'role-switch', needsWord: ['you are now', 'from now on', 'act as', 'instructions'], pattern: /\b(?:you are now|from now on,? you (?:are|will)|act as (?:an? )?(?:unrestricted|jailbroken|DAN)\b|new (?:system )?instructions\s*:)/gi },
  // Every match holds `<`, `[` or a role label's `:` — one-character tests that most prose fails at once.
  { category: 'injection', kind: 'chat-template', needs: ['<', '[', ':'], needsWord: ['<|', '[inst]', '[/inst]', '<<sys>>', 'system', 'assistant'], pattern: /<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<<SYS>>|^\s*(?:system|assistant)\s*:/gim },
  { category: 'injection', kind: 'exfiltration-instruction', needsWord: ['the user', 'send '], pattern: /\b(?:do not|don't|never) (?:tell|inform|mention to|reveal to) the user\b|\bsend (?:the|all|your) (?:data|secrets?|credentials|keys|files|conversation) to\b/gi },
];
