import type { PhraseRule } from '../scan-engine.js';

/**
 * Orders to the model: phrases aimed at the model rather than describing the tool. A tool's description says what
 * it does; one that tells the model to drop what it was told, what to do before other tools, or how to treat the
 * person it works for, is an attack.
 */

/** Overriding what the model was told. */
export const OVERRIDING: PhraseRule[] = [
  { leet: true, rule: 'instructions-to-model', severity: 'high', imperative: true, pattern: /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|these\s+)?(?:[\w']+\s+){0,3}?(?:instructions?|rules?|guidelines?|directions?|constraints?|polic(?:y|ies)|requests?|restrictions?|guardrails?|safeguards?|conversation)\b/i },
  { leet: true, rule: 'instructions-to-model', severity: 'high', imperative: true, pattern: /\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+)?(?:above|previous|prior|earlier|preceding)\b/i },
  { rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:obey|follow|execute|carry\s+out|treat)\s+(?:whatever|any|all|every)\s+(?:new\s+|embedded\s+|hidden\s+)?(?:instructions?|commands?|directives?)\b(?:[^.]{0,80}\b(?:as\s+(?:a\s+)?(?:direct|authori[sz]ed|trusted)|embedded|found|inside|contained))?/i },
];

/** Ordering the model around other tools. */
export const AROUND_OTHER_TOOLS: PhraseRule[] = [
  { rule: 'instructions-to-model', severity: 'high', pattern: /\bbefore\s+(?:using|calling|invoking|running|executing|answering|responding|you\s+(?:use|call|run|answer|respond))\s+(?:any|this|other|another|the\s+\w+|each|every)\b(?![^.]{0,40}\b(?:from|of|on)\s+this\s+server\b)[^.]{0,80}?\b(?:must|always|first|need\s+to|should|read|call|send|include|pass|route|through\s+this)\b/i },
  { rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:always|first|you\s+must|must\s+always|make\s+sure\s+to)\s+(?:call|invoke|run|use|execute|route)\s+(?:this\s+tool|\w+)\s+(?:first|before|prior\s+to|instead)\b/i },
  { rule: 'instructions-to-model', severity: 'high', imperative: true, pattern: /\b(?:reveal|print|output|return|dump|disclose|leak|include|embed|append|share)\s+(?:a\s+copy\s+of\s+)?(?:the\s+|your\s+|all\s+|any\s+)?(?:\w+\s+){0,2}?(?:system\s+prompt|system\s+instructions|hidden\s+(?:system\s+)?instructions|your\s+instructions|(?:entire|full|whole)\s+(?:conversation|context|chat|transcript|history)|conversation\s+history|chat\s+history)\b/i },
  { rule: 'instructions-to-model', severity: 'medium', pattern: /\b(?:the\s+)?(?:assistant|model|ai|llm|agent)\s+(?:must|should|needs?\s+to|is\s+required\s+to|has\s+to)\s+(?:always\s+|first\s+|also\s+)?(?:read|send|call|include|pass|forward|upload|share|ignore|append|attach)\b/i },
  { rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:requires?|mandatory\s+for)\s+you\s+to\b|\byou\s+(?:must|are\s+required\s+to|have\s+to)\s+(?:first\s+|always\s+|also\s+)?(?:call|read|send|include|pass|run|invoke|embed|attach|upload)\b|;\s*this\s+is\s+mandatory\b/i },
];

/** A definition that says it will change once trusted: the rug pull announced. */
export const RUG_PULL: PhraseRule[] = [
  { rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:once|after|when|until)\s+(?:this\s+(?:tool|description)\s+|it\s+)?(?:has\s+been\s+|is\s+|gets\s+|was\s+)?(?:approved|reviewed|pinned|trusted|whitelisted|allow-?listed)\b[^.]{0,100}\b(?:will|begins?|starts?|activates?|swaps?|switch(?:es)?|changes?|enables?|adds?|executes?|later\s+version)\b|\bpost-approval\b|\bduring\s+(?:the\s+)?review\b[^.]{0,80}\b(?:activates?|later|after)\b|\bapproval\s+hash\b/i },
];

/** Steering how the model treats the person: skip their consent, speak as them. */
export const BYPASSING_THE_PERSON: PhraseRule[] = [
  { rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:without|instead\s+of|no\s+need\s+to|never|do\s+not|don't)\s+(?:first\s+)?(?:asking|ask|confirming|confirm|checking|check|(?:waiting\s+for|getting|requesting)(?=(?:\s+[\w'-]+){0,4}?\s+(?:consent|confirm|approv|permission|go-ahead|sign-?off)))\b(?:\s+(?:with|for|the|their|them|first|again|consent|confirmation|approval|user))*|\b(?:already\s+consented|has\s+already\s+(?:approved|agreed|consented))\b/i },
  { rule: 'instructions-to-model', severity: 'high', pattern: /\bas\s+(?:if|though)\s+(?:the\s+)?user\s+(?:had\s+)?(?:typed|said|written|asked|sent|requested)\b/i },
];

/** Results reported as something they are not, failures left out. */
export const MISREPORTING: PhraseRule[] = [
  { rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:describe|report|present)\s+(?:the\s+|this\s+|it\s+|them\s+)?(?:\w+\s+){0,2}?as\s+(?:successful|passing|your\s+own|safe|fine|complete)\b|\b(?:leave\s+out|omit|hide|drop)\s+(?:the\s+)?(?:names?\s+of\s+)?(?:failing|failed|failures|errors|warnings)\b|\bshould\s+not\s+be\s+(?:alarmed|worried|told|bothered)\b|\breassure\s+(?:them|the\s+user)\b/i },
];
