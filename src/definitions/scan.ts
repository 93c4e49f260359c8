import { textsOf } from './definition-parts.js';
import { PeerIndex } from './peer-index.js';
import { joinProse, prose } from './prose.js';
import { suspiciousParameters } from './rules/context-parameters.js';
import { embeddedSecrets } from './rules/embedded-secrets.js';
import { encodedPayloads } from './rules/encoded-payloads.js';
import { hiddenText } from './rules/hidden-unicode.js';
import { PHRASES, SENTENCE_RULES } from './rules/phrases.js';
import { capabilityMismatch } from './rules/read-only-writes.js';
import { presetSecrets } from './rules/sensitive-files.js';
import { shadowing } from './rules/shadowing.js';
import { proseScanner } from './scan-engine.js';
import type { DefinitionFinding, DefinitionScan, PeerTool, ScannedDefinition } from './scan-types.js';

/**
 * The definition scanner: what an MCP server tells the model about its tools, prompts and resources, read before
 * the model ever sees it, offline. A definition can attack on its own — hidden instructions, invisible text,
 * encoded payloads, references that steer other servers' tools, secrets, a read-only label on a tool that writes.
 * Each rule gives findings with a severity; policy decides what a risky definition gets. The rules are data, one
 * file per family under rules/; the engine that runs the prose rules is scan-engine.ts.
 */

export { PeerIndex } from './peer-index.js';
export { textsOf } from './definition-parts.js';
export { revealHidden, showHidden } from './rules/hidden-unicode.js';
export type { DefinitionFinding, DefinitionScan, FindingRule, PeerTool, ScannedDefinition, Severity } from './scan-types.js';

const scanProse = proseScanner(PHRASES, SENTENCE_RULES);

/** Scans one definition; `peers` are the other servers' tools the same client sees. */
export function scanDefinition(def: ScannedDefinition, peers: readonly PeerTool[] | PeerIndex = []): DefinitionScan {
  const index = peers instanceof PeerIndex ? peers : new PeerIndex(peers);
  const texts = textsOf(def);
  const findings: DefinitionFinding[] = [];
  for (const [where, text] of texts) findings.push(...hiddenText(text, where, scanProse));
  // The prose rules run once over all of the definition's sentences: a pass per string costs more than the rules.
  const { text, whereAt } = joinProse(texts);
  const readied = prose(text);
  findings.push(...scanProse(readied, whereAt), ...encodedPayloads(text, whereAt, scanProse), ...embeddedSecrets(text, whereAt));
  findings.push(...shadowing(def, readied, index), ...capabilityMismatch(def), ...suspiciousParameters(def), ...presetSecrets(texts));
  return verdict(findings);
}

function verdict(findings: DefinitionFinding[]): DefinitionScan {
  const risk = findings.some((f) => f.severity === 'high') ? 'high' : findings.some((f) => f.severity === 'medium') ? 'medium' : findings.length > 0 ? 'low' : undefined;
  return { findings, risk, flagged: isFlagged(findings) };
}

/** Worth holding back: one high finding, or medium ones from two different rules. */
export function isFlagged(findings: readonly { rule: string; severity: string }[]): boolean {
  return findings.some((f) => f.severity === 'high') || new Set(findings.filter((f) => f.severity === 'medium').map((f) => f.rule)).size >= 2;
}
