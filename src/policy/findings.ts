import type { Finding } from '../filters/scan.js';
import { BOTTOM, join, type Label } from '../ifc/label.js';

const RAISES: Record<Finding['category'], Label> = {
  pii: { integrity: 'trusted', confidentiality: 'pii' },
  secret: { integrity: 'trusted', confidentiality: 'secret' },
  // Text that tries to steer the model is, by definition, not to be trusted.
  injection: { integrity: 'untrusted', confidentiality: 'public' },
};

/** The label that content with these findings carries: PII → pii, a secret → secret, injection → untrusted. */
export function findingsLabel(findings: readonly Finding[]): Label {
  return findings.reduce((l, f) => join(l, RAISES[f.category]), BOTTOM);
}
