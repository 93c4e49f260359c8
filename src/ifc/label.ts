/**
 * Information-flow labels: integrity × confidentiality, a lattice ordered so that "higher" means "more
 * careful handling needed". A session's label only ever rises (join); a write is allowed when the data the
 * session holds is no higher than the destination's clearance.
 */

export const CONFIDENTIALITY = ['public', 'internal', 'pii', 'secret'] as const;
export type Confidentiality = (typeof CONFIDENTIALITY)[number];

export const INTEGRITY = ['trusted', 'untrusted'] as const;
export type Integrity = (typeof INTEGRITY)[number];

export interface Label {
  integrity: Integrity;
  confidentiality: Confidentiality;
}

/** Where every session starts: nothing untrusted read, nothing confidential held. */
export const BOTTOM: Label = Object.freeze({ integrity: 'trusted', confidentiality: 'public' });

const rank = (c: Confidentiality) => CONFIDENTIALITY.indexOf(c);

/** The least upper bound: what a session holds after it has seen both. */
export function join(a: Label, b: Label): Label {
  return {
    integrity: a.integrity === 'untrusted' || b.integrity === 'untrusted' ? 'untrusted' : 'trusted',
    confidentiality: rank(a.confidentiality) >= rank(b.confidentiality) ? a.confidentiality : b.confidentiality,
  };
}

/** Whether confidentiality `a` may flow to a place cleared for `b`. */
export function flowsTo(a: Confidentiality, b: Confidentiality): boolean {
  return rank(a) <= rank(b);
}

export function sameLabel(a: Label, b: Label): boolean {
  return a.integrity === b.integrity && a.confidentiality === b.confidentiality;
}

export function formatLabel(l: Label): string {
  return `${l.integrity}/${l.confidentiality}`;
}

/** The most careful label: what a stored label that cannot be read counts as (fail closed). */
export const TOP: Label = Object.freeze({ integrity: 'untrusted', confidentiality: 'secret' });

/** Reads a label written by `formatLabel`; anything else is TOP, never BOTTOM. */
export function parseLabel(text: string): Label {
  const [integrity, confidentiality] = text.split('/');
  const i = INTEGRITY.find((x) => x === integrity);
  const c = CONFIDENTIALITY.find((x) => x === confidentiality);
  return i && c ? { integrity: i, confidentiality: c } : TOP;
}
