import { propertiesOf } from '../definition-parts.js';
import type { DefinitionFinding, ScannedDefinition } from '../scan-types.js';

/** Context parameters: parameters that ask the model for the conversation, its instructions or the user's secrets. */
const CONTEXT_PARAMETER = /^(?:conversation|conversation_history|chat_history|history|full_context|context_dump|system_prompt|prompt_history|previous_messages|all_messages|user_secrets|credentials|ssh_key|private_key|env_vars|environment)$/i;

/** One finding naming every such parameter of the tool. */
export function suspiciousParameters(def: ScannedDefinition): DefinitionFinding[] {
  const asked = propertiesOf(def.inputSchema).filter((p) => CONTEXT_PARAMETER.test(p));
  return asked.length > 0 ? [{ rule: 'suspicious-parameter', severity: 'medium', where: 'inputSchema', evidence: `asks for ${asked.join(', ')}` }] : [];
}
