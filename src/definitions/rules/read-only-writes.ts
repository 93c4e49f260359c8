import { propertiesOf } from '../definition-parts.js';
import type { DefinitionFinding, ScannedDefinition } from '../scan-types.js';

/** Read-only writes: a tool annotated read-only whose parameters say it writes, sends or runs something. */

/** Words of parameter names that carry something out: what a read-only tool has no use for. */
const WRITING_WORDS = new Set('execute exec commit write delete remove drop push overwrite send transfer recipient recipients upload publish deploy kill grant revoke eval command cmd script shell content contents body payload webhook bcc cc append insert update'.split(' '));

/** Words of parameter names that reach another machine: what a closed-world tool has no use for. */
const NETWORK_WORDS = new Set('webhook smtp callback'.split(' '));

/** The words of a parameter name: `force_push`, `toAccount`, `webhook-url`. */
const nameWords = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/** A tool annotated read-only whose schema takes content to write, a command, a recipient or a transfer. */
export function capabilityMismatch(def: ScannedDefinition): DefinitionFinding[] {
  if (def.annotations?.readOnlyHint !== true) return [];
  const props = propertiesOf(def.inputSchema);
  const writing = props.filter((p) => nameWords(p).some((w) => WRITING_WORDS.has(w)) || /^to_(?:account|address|email|phone|number|user|iban)/i.test(p));
  // A closed-world tool (openWorldHint false) has no use for an address to reach.
  if (def.annotations?.openWorldHint === false) {
    writing.push(...props.filter((p) => nameWords(p).some((w) => NETWORK_WORDS.has(w))));
    // An address to reach and a key to reach it with, on a tool that says it reaches nothing.
    const credential = props.some((p) => /^(?:api_?key|token|access_token|secret)$/i.test(p));
    if (credential) writing.push(...props.filter((p) => /^(?:url|endpoint|host|server_url|base_url)$/i.test(p)));
  }
  // "Explains a shell command without running it": the description says the write never happens.
  if (writing.length === 0 || /\b(?:does\s+not|doesn't|never|without)\s+(?:send|run|execut|apply|chang|modif|writ|commit)\w*|\bnothing\s+is\s+(?:sent|run|executed|applied|changed|committed|written)\b/i.test(def.description ?? '')) return [];
  return [{ rule: 'capability-mismatch', severity: 'high', where: 'annotations.readOnlyHint', evidence: `read-only, but takes ${writing.join(', ')}` }];
}
