import type { PhraseRule, SentenceRule } from '../scan-engine.js';
import { DATA_LEAVING, HANDING_OVER_WHAT_IT_SAW, SENDING_WHAT_THE_USER_SAID } from './exfiltration.js';
import { CHAT_TURNS, POSING_AS_THE_SYSTEM, TAKING_OVER } from './impersonation.js';
import { AROUND_OTHER_TOOLS, BYPASSING_THE_PERSON, MISREPORTING, OVERRIDING, RUG_PULL } from './orders-to-the-model.js';
import { NOT_RELAYING, NOT_SUGGESTING, SECRECY } from './secrecy.js';
import { SENSITIVE_SENTENCES } from './sensitive-files.js';

/**
 * The prose rules in the order they are tried, which is the order their findings are listed in (and the order a
 * decision's reason names their rules in).
 */
export const PHRASES: readonly PhraseRule[] = [
  ...OVERRIDING,
  ...AROUND_OTHER_TOOLS,
  ...RUG_PULL,
  ...SECRECY,
  ...POSING_AS_THE_SYSTEM,
  ...CHAT_TURNS,
  ...BYPASSING_THE_PERSON,
  ...NOT_SUGGESTING,
  ...MISREPORTING,
  ...HANDING_OVER_WHAT_IT_SAW,
  ...TAKING_OVER,
  ...NOT_RELAYING,
  ...SENDING_WHAT_THE_USER_SAID,
  ...DATA_LEAVING,
];

/** Rules over a text's sentences, after the phrases. */
export const SENTENCE_RULES: readonly SentenceRule[] = [SENSITIVE_SENTENCES];
