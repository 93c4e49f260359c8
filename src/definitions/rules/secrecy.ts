import type { PhraseRule } from '../scan-engine.js';

/** Secrecy: what the user must not know, told to the model in a definition. */

/** Keeping the user uninformed: not telling them, doing things silently, hiding the instructions themselves. */
export const SECRECY: PhraseRule[] = [
  { rule: 'secrecy', severity: 'high', pattern: /\b(?:do\s+not|don't|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|show(?:ing)?|notify(?:ing)?|alert(?:ing)?|let(?:ting)?|ask(?:ing)?|warn(?:ing)?)\s+(?:it\s+to\s+|this\s+to\s+|to\s+)?(?:the\s+)?(?:user|human|operator|person)\b/i },
  { rule: 'secrecy', severity: 'high', pattern: /\b(?:never|do\s+not|don't)\s+(?:reveal|mention|disclose|show|repeat)\s+(?:these|this|the(?:se)?\s+(?:hidden\s+)?)\s*(?:instructions?|directives?|notes?|rules?)\b/i },
  { rule: 'secrecy', severity: 'high', pattern: /\b(?:silently|secretly|quietly|covertly|invisibly|surreptitiously)\s+(?:\w+\s+){0,3}?(?:send|read|copy|upload|forward|include|add|append|call|exfiltrate|collect|pass|record|log|bcc|cc|attach)\b/i },
  { rule: 'secrecy', severity: 'high', pattern: /\b(?:keep|hide)\s+(?:this|these|it|the\s+\w+)\s+(?:hidden|secret|confidential|private)?\s*from\s+(?:the\s+)?(?:user|human)\b|\b(?:the\s+)?user\s+(?:must|should|need)\s*(?:not|n't)\s+(?:know|see|be\s+told|notice)\b/i },
  { rule: 'secrecy', severity: 'high', pattern: /\bkeep\s+(?:this|these)\s+(?:directive|instruction|note|rule)s?\s+(?:private|secret|hidden|confidential)\b|\b(?:does\s+not|doesn't)\s+need\s+to\s+know\b|\b(?:say|claim|pretend|tell\s+(?:them|the\s+user))\s+(?:that\s+)?(?:you|it|this)\s+(?:used|called|did|have|has|was|were)\b/i },
  { rule: 'secrecy', severity: 'high', pattern: /\binstead\s+of\s+(?:reporting|telling|showing|mentioning|saying|admitting)\b|\b(?:does\s+not|doesn't|need\s+not)\s+(?:need\s+to\s+)?be\s+(?:announced|mentioned|disclosed|reported|shown)\b/i },
];

/** Not suggesting, mentioning or admitting something to the person. */
export const NOT_SUGGESTING: PhraseRule[] = [
  { rule: 'secrecy', severity: 'high', pattern: /\b(?:never|do\s+not|don't)\s+(?:suggest|mention|say|admit|disclose|report|warn|recommend|tell|reveal|let\s+on)\b/i },
];

/** Not relaying something to the user or into the answer. */
export const NOT_RELAYING: PhraseRule[] = [
  { rule: 'secrecy', severity: 'high', pattern: /\b(?:do\s+not|don't|never)\s+(?:bring\s+(?:it|this|them)\s+up|relay|pass\s+on|forward|show|surface|list)\b(?:\s+\w+){0,4}\s+(?:to|with|in)\s+(?:the\s+user|them|your\s+(?:summary|reply|answer))\b/i },
];
