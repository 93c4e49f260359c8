import { ibanValid, luhnValid } from './checksums.js';

export type Category = 'secret' | 'pii' | 'injection';

export interface Detector {
  category: Category;
  kind: string;
  pattern: RegExp;
  /** Extra check on a match, to keep false positives down (checksums, reserved ranges). */
  valid?: (match: string) => boolean;
  /** A substring every match contains: text without it skips the regex entirely (the common case). */
  needs?: string;
  /** Lower-case words of which every match contains one (checked against the lower-cased text). */
  needsWord?: string[];
  /** Every match contains a digit: prose without digits skips the regex. */
  needsDigit?: boolean;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

/**
 * What the content filters look for. Each pattern is global and runs over normalised text (see normalise.ts).
 * Patterns are anchored on the distinctive shape of each kind so that ordinary prose does not trip them.
 */
export const DETECTORS: readonly Detector[] = [
  // Secrets
  { category: 'secret', kind: 'private-key', needs: 'PRIVATE KEY', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { category: 'secret', kind: 'aws-access-key-id', needsDigit: true, pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { category: 'secret', kind: 'aws-secret-access-key', needsWord: ['aws'], pattern: /\baws_?secret_?access_?key\b["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b/gi },
  { category: 'secret', kind: 'github-token', needs: '_', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { category: 'secret', kind: 'gitlab-token', needs: 'glpat-', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { category: 'secret', kind: 'slack-token', needs: 'xox', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { category: 'secret', kind: 'stripe-key', needs: '_', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { category: 'secret', kind: 'google-api-key', needs: 'AIza', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { category: 'secret', kind: 'openai-key', needs: 'sk-', pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b/g },
  { category: 'secret', kind: 'npm-token', needs: 'npm_', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { category: 'secret', kind: 'jwt', needs: 'eyJ', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g },
  { category: 'secret', kind: 'connection-string', needs: '://', pattern: /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis(?:s)?|amqps?|mssql|sqlserver):\/\/[^\s:/@]+:[^\s@/]+@[^\s/]+/gi },
  { category: 'secret', kind: 'azure-key', needs: 'Key=', pattern: /\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/=]{30,}/g },
  { category: 'secret', kind: 'bearer-token', needs: 'Bearer', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/g },
  // Personal data
  { category: 'pii', kind: 'email', needs: '@', pattern: /(?<![\w.%+:/-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g },
  {
    category: 'pii',
    kind: 'card-number', needsDigit: true,
    pattern: /\b(?:\d[ -]?){12,18}\d\b/g,
    valid: (m) => {
      const d = digitsOf(m);
      return d.length >= 13 && d.length <= 19 && luhnValid(d);
    },
  },
  { category: 'pii', kind: 'iban', needsDigit: true, pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g, valid: ibanValid },
  { category: 'pii', kind: 'us-ssn', needsDigit: true, needs: '-', pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  { category: 'pii', kind: 'uk-nino', needsDigit: true, pattern: /\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g },
  {
    category: 'pii',
    kind: 'phone', needsDigit: true,
    // Not inside a longer run of digit groups (a card number is not three phone numbers).
    pattern: /(?<![\w+]|\d[ .-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}\b(?![ .-]\d)/g,
    valid: (m) => {
      const n = digitsOf(m).length;
      return n >= 10 && n <= 15;
    },
  },
  // Prompt injection
  {
    category: 'injection',
    kind: 'override-instructions', needsWord: ['ignore', 'disregard', 'forget', 'override'],
    pattern: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions|prompts?|rules|directions|messages)\b/gi,
  },
  { category: 'injection', kind: 'role-switch', needsWord: ['you are now', 'from now on', 'act as', 'instructions'], pattern: /\b(?:you are now|from now on,? you (?:are|will)|act as (?:an? )?(?:unrestricted|jailbroken|DAN)\b|new (?:system )?instructions\s*:)/gi },
  { category: 'injection', kind: 'chat-template', needsWord: ['<|', '[inst]', '[/inst]', '<<sys>>', 'system', 'assistant'], pattern: /<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<<SYS>>|^\s*(?:system|assistant)\s*:/gim },
  { category: 'injection', kind: 'exfiltration-instruction', needsWord: ['the user', 'send '], pattern: /\b(?:do not|don't|never) (?:tell|inform|mention to|reveal to) the user\b|\bsend (?:the|all|your) (?:data|secrets?|credentials|keys|files|conversation) to\b/gi },
];
