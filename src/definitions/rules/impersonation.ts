import type { PhraseRule } from '../scan-engine.js';

/** Who is speaking: a definition posing as the system, the operator or the assistant's own instructions. */

/** "<IMPORTANT> blocks", "<|im_start|> and <|im_end|> markers": a marker named, not used. */
const NAMED_NOT_USED = /^[^.]{0,30}?\b(?:blocks?|tags?|markers?|tokens?|delimiters?|sections?)\b/i;

/** Markers and headings of a system or assistant turn, and the model told it is now someone else. */
export const POSING_AS_THE_SYSTEM: PhraseRule[] = [
  { rule: 'impersonation', severity: 'high', notBefore: NAMED_NOT_USED, pattern: /<\s*\/?\s*(?:important|system|instructions?|admin|sys|override|hidden|secret|assistant)(?:[_-][a-z]+)?(?:\s+[a-z_-]+=[^>]{0,40})?\s*>|\[\s*(?:system|admin|inst|important|assistant)(?:\s+(?:instructions?|note|override|message|prompt))?\s*[\]:]|<\|(?:im_start|im_end|system|endoftext)\|>|<<\s*sys\s*>>|\{\{\s*(?:system|assistant)\b/i },
  { rule: 'impersonation', severity: 'high', notBefore: NAMED_NOT_USED, pattern: /(?:^|[\s(.;])(?:SYSTEM|ASSISTANT|ADMIN|DEVELOPER)(?:\s+(?:INSTRUCTIONS?|NOTE|OVERRIDE|MESSAGE|PROMPT|DIRECTIVE))?\s*:/ },
  { rule: 'impersonation', severity: 'high', notBefore: NAMED_NOT_USED, pattern: /\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you|new\s+(?:system\s+)?instructions\s*:|system\s+(?:prompt|message)\s*(?:override|update)\s*:|act\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|admin|root)|hidden\s+(?:directive|instructions?|command)s?\s*:)/i },
];

/** Chat turns written into a definition: "Human: …", "Assistant: …" at the start of a line or a sentence. */
export const CHAT_TURNS: PhraseRule[] = [
  { rule: 'impersonation', severity: 'high', notBefore: NAMED_NOT_USED, pattern: /(?:^|\n|[.!?]\s+)(?:Human|User|Assistant|System|AI|Model)\s*:\s*\S/ },
];

/** Posing as the operator or the system, or taking over the conversation. */
export const TAKING_OVER: PhraseRule[] = [
  { rule: 'impersonation', severity: 'high', notBefore: NAMED_NOT_USED, pattern: /\byou\s+are\s+no\s+longer\s+bound\b|\byour\s+(?:real|actual|true)\s+task\b|\bdisregard\s+the\s+conversation\b|\brepeat\s+your\s+(?:complete\s+|full\s+|entire\s+)?system\s+prompt\b|\bmessage\s+from\s+the\s+(?:system|operator|administrator|developer)\b|\bsystem\s+prompt\s+(?:is|are)\s+out\s+of\s+date\b|\brules\s+in\s+your\s+(?:original\s+)?system\s+prompt\b|\battention\s+(?:model|assistant|ai|llm|agent)\b|\bassistant\s+context\s+expired\b|\b(?:at\s+the\s+(?:very\s+)?start\s+of\s+every\s+conversation|before\s+replying\s+to\s+the\s+user|in\s+every\s+(?:conversation|reply|response))\b/i },
  { rule: 'impersonation', severity: 'high', notBefore: NAMED_NOT_USED, pattern: /\bfrom\s+now\s+on,?\s+(?:you|follow|only|always|never|answer|reply|respond|ignore|obey)\b/i },
];
