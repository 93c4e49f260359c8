import { scanPayload } from '../filters/scan.js';
import { flowsTo, join, type Label } from '../ifc/label.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { Destination } from './checked-request.js';
import { findingsLabel } from './findings.js';

/** Why data may not go where it is going: the confidentiality it would carry too high, or untrusted data for a trusted-only place. */
export interface WriteDown {
  kind: 'confidentiality' | 'integrity';
  reason: string;
  /** The destination's clearance, as the record names the rule. */
  rule: string;
}

/**
 * No write-down, for anything on its way to an upstream — a call's arguments and whatever else it forwards, or a
 * client's answer to the upstream's question: what the holder holds, joined with what the data itself carries (a
 * secret pasted in counts; binary payloads are scanned too), must be cleared for the destination, and a
 * trusted-only destination takes nothing untrusted. `to` names the destination in the reason.
 */
export function writeDown(held: Label, data: Params, dest: Destination, to: string): { clean: boolean; refused?: WriteDown } {
  const { findings } = scanPayload(data, { secret: 'label', pii: 'label', injection: 'label' }, { binary: 'scan' });
  const outgoing = join(held, findingsLabel(findings));
  const rule = `clearance ${dest.clearance}${dest.requireTrusted ? ', trusted only' : ''}`;
  const clean = findings.length === 0;
  if (!flowsTo(outgoing.confidentiality, dest.clearance)) {
    return { clean, refused: { kind: 'confidentiality', rule, reason: `the session holds ${outgoing.confidentiality} data and ${to} is cleared for ${dest.clearance} only` } };
  }
  if (dest.requireTrusted && outgoing.integrity === 'untrusted') {
    return { clean, refused: { kind: 'integrity', rule, reason: `the session has read untrusted data and ${to} accepts trusted sessions only` } };
  }
  return { clean };
}
