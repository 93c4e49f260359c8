import { DETECTORS } from '../../filters/detectors.js';
import type { DefinitionFinding, WhereAt } from '../scan-types.js';

/** Embedded secrets: a live credential written into a definition, which every client that lists it then holds. */

/** What documentation writes where a credential goes: ****, xxxxxx, ${VAR}, <token>, "your_key". */
const PLACEHOLDER = /\*{3,}|x{6,}|\$\{|<[a-z_-]+>|\byour[_-]?(?:key|token|password|secret)\b|\bplaceholder\b|changeme|:(?:PASSWORD|PASS|SECRET|password)@/i;

/** A credential named and given: "auth token 9e4c1a7f…", "api_key=Zr84kq…" — a long random value after the word. */
const NAMED_CREDENTIAL = /\b(?:auth(?:entication)?|api|access|secret|private|client|bearer|session)[\s_-]?(?:token|key|secret)\b\s*(?:is\s+|[:=]\s*|"\s*:\s*")?["']?([A-Za-z0-9+/_.-]{24,})/i;

/** Credentials written into a definition: the content filters' secret detectors, over every string. */
export function embeddedSecrets(text: string, whereAt: WhereAt): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  const named = NAMED_CREDENTIAL.exec(text);
  if (named && /\d/.test(named[1]) && /[a-z]/i.test(named[1]) && !PLACEHOLDER.test(named[0])) findings.push({ rule: 'embedded-secret', severity: 'high', where: whereAt(named.index), evidence: `a credential: ${named[1].slice(0, 6)}…` });
  for (const d of DETECTORS) {
    if (d.category !== 'secret' || d.kind === 'bearer-token') continue;
    d.pattern.lastIndex = 0;
    const m = d.pattern.exec(text);
    d.pattern.lastIndex = 0;
    if (m && !PLACEHOLDER.test(m[0])) findings.push({ rule: 'embedded-secret', severity: 'high', where: whereAt(m.index), evidence: `${d.kind}: ${m[0].slice(0, 8)}…` });
  }
  return findings;
}
