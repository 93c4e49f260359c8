import type { DefinitionsPolicy } from '../config/schema.js';
import { pinId, trustedDefinition, type DefinitionPin, type PinStore } from '../state/ports.js';
import { entriesOf, peerIndex, scanEntry, type ServerOffer } from './offer-scan.js';
import { pinOf, type DefinitionKind } from './pin.js';
import { isFlagged, type DefinitionFinding, type PeerIndex } from './scan.js';

/** One server's definitions as it listed them, with the policy that applies to it. */
export interface OfferedServer extends ServerOffer {
  policy: DefinitionsPolicy;
}

/** Whether a client may see a definition now, and if not, why. */
export type Verdict = { shown: true; untrusted: boolean } | { shown: false; status: 'quarantined' | 'rejected' | 'unreviewed'; reason: string };

/** What happened to one definition at discovery or by an operator: one audit record each. */
export interface DefinitionEvent {
  server: string;
  kind: DefinitionKind;
  name: string;
  change: 'first-seen' | 'changed' | 'removed' | 'returned' | 'approved' | 'rejected';
  /** The pin as last seen (or last trusted, for an operator's decision), and the pin now. */
  before?: string;
  after: string;
  outcome: 'allowed' | 'quarantined' | 'approved' | 'rejected' | 'removed';
  reason: string;
  findings: string[];
  by?: string;
}

/** An operator's decision about a definition that changed again since it was shown to them. */
export class StaleDefinition extends Error {}

/** Definitions scanned between two turns of the event loop (about 5 ms of work). */
const YIELD_EVERY = 100;

const UNREVIEWED: Verdict = { shown: false, status: 'unreviewed', reason: 'it has not been reviewed yet (a new or changed definition is checked before it is shown); try again in a moment' };

/**
 * Pins every definition an upstream offers and decides what a client may see (issue 16). A definition is shown
 * when its pin is the one last trusted — by the first start, by the server's policy, or by an operator — and held
 * back otherwise: quarantined when it is new on a server added later, changed since it was trusted, or flagged by
 * the scanner; rejected when an operator said no to exactly that pin.
 *
 * Reviews are asynchronous (the pin store may be a network away); verdicts are synchronous, read from the pins
 * this process last loaded, so building a catalog stays a walk over Maps. A definition no review has seen yet is
 * held back until one has: what cannot be checked is not shown.
 */
export class DefinitionGuard {
  /** The pins as last loaded or written, by pinId. */
  private pins = new Map<string, DefinitionPin>();
  /** Entries are the objects an upstream sent; they stay the same until its list is read again. */
  private readonly hashes = new WeakMap<object, string>();
  private instructionHashes = new Map<string, string>();

  constructor(
    private readonly store: PinStore,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** Whether the pins were ever read: until they are, an empty map means "not known", never "none". */
  private loaded = false;

  /** Loads every pin from the store (at start, and when another replica changed one). */
  async load(): Promise<void> {
    this.pins = new Map((await this.store.list()).map((p) => [pinId(p), p]));
    this.loaded = true;
  }

  /** The pin of an entry as sent; computed once per entry object. */
  hashOf(kind: DefinitionKind, entry: Record<string, unknown> | string): string {
    if (typeof entry === 'string') {
      let hash = this.instructionHashes.get(entry);
      if (!hash) {
        hash = pinOf(kind, entry);
        if (this.instructionHashes.size > 1000) this.instructionHashes = new Map();
        this.instructionHashes.set(entry, hash);
      }
      return hash;
    }
    let hash = this.hashes.get(entry);
    if (!hash) this.hashes.set(entry, (hash = hashable(kind, entry)));
    return hash;
  }

  /** Whether a client may see this definition now (synchronous: from the pins this process holds). */
  verdict(server: string, kind: DefinitionKind, name: string, entry: Record<string, unknown> | string, policy: DefinitionsPolicy): Verdict {
    const pin = this.pins.get(pinId({ server, kind, name }));
    const hash = this.hashOf(kind, entry);
    if (hash === UNREADABLE) return { shown: false, status: 'unreviewed', reason: 'its definition cannot be read as JSON (too deep or cyclic), so it cannot be pinned' };
    if (!pin) return UNREVIEWED;
    if (pin.trustedHash === hash) return { shown: true, untrusted: pin.hash === hash && policy.flagged === 'untrusted' && isFlagged(pin.findings) };
    if (pin.hash !== hash) return UNREVIEWED;
    if (pin.status === 'rejected') return { shown: false, status: 'rejected', reason: 'an operator rejected this definition' };
    return { shown: false, status: 'quarantined', reason: quarantineReason(pin) };
  }

  /**
   * Pins what the servers offer now: a definition seen for the first time, or different from its pin, is
   * scanned (beside every server's tools, for shadowing), decided by policy, written to the store and returned
   * as an event for the audit log. Unchanged definitions cost a hash lookup. `configured` names every server
   * in the config: on the very first start (no server enrolled yet) they are all enrolled.
   */
  async review(servers: readonly OfferedServer[], configured: readonly string[]): Promise<DefinitionEvent[]> {
    // A store that could not be read at start is read now: otherwise a restart would look like the first start,
    // and every changed definition like a new one on an enrolled server (allowed, its trusted pin overwritten).
    if (!this.loaded) await this.load();
    const enrolled = new Set([...this.pins.values()].filter((p) => p.kind === 'server').map((p) => p.server));
    const writes: DefinitionPin[] = [];
    const now = this.now();
    if (enrolled.size === 0) {
      for (const server of configured) {
        enrolled.add(server);
        writes.push(serverPin(server, now));
      }
    }
    // Each server's pins as they were before this review: what it no longer offers is among them.
    const pinned = new Map<string, DefinitionPin[]>();
    for (const p of this.pins.values()) if (p.kind !== 'server') (pinned.get(p.server) ?? pinned.set(p.server, []).get(p.server)!).push(p);
    let index: PeerIndex | undefined;
    let scanned = 0;
    const events: DefinitionEvent[] = [];
    for (const offered of servers) {
      const offeredKeys = new Set<string>();
      for (const [kind, name, entry] of entriesOf(offered)) {
        const key = pinId({ server: offered.server, kind, name });
        offeredKeys.add(key);
        const pin = this.pins.get(key);
        const hash = this.hashOf(kind, entry);
        if (hash === UNREADABLE) continue;
        if (pin?.hash === hash) {
          if (pin.removedAt !== undefined) {
            // Back as it was: what it was before it went (trusted, quarantined or rejected) still holds.
            const { removedAt: _gone, ...back } = pin;
            writes.push({ ...back, changedAt: now });
            events.push({ server: offered.server, kind, name, change: 'returned', before: hash, after: hash, outcome: pin.status === 'trusted' ? 'allowed' : pin.status, reason: `offered again, unchanged (${pin.status})`, findings: pin.findings.map(describe) });
          }
          continue;
        }
        // A first sight of a large catalog scans for a while: other sessions' calls go on between batches.
        if (++scanned % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        index ??= peerIndex(servers);
        const findings = scanEntry(kind, name, entry, index.from(offered.server)).findings;
        const decided = decide(pin, hash, findings, offered.policy, enrolled.has(offered.server));
        const next: DefinitionPin = {
          server: offered.server,
          kind,
          name,
          hash,
          definition: entry,
          // The definition trusted is kept beside the one seen only when they differ (a pin is written per change).
          ...(decided.trust ? { trustedHash: hash } : pin?.trustedHash ? { trustedHash: pin.trustedHash, trusted: trustedDefinition(pin) } : {}),
          status: decided.trust ? 'trusted' : 'quarantined',
          findings,
          firstSeen: pin?.firstSeen ?? now,
          changedAt: now,
        };
        writes.push(next);
        events.push({ server: offered.server, kind, name, change: pin ? 'changed' : 'first-seen', before: pin?.hash, after: hash, outcome: decided.trust ? 'allowed' : 'quarantined', reason: decided.reason, findings: findings.map(describe) });
      }
      for (const pin of pinned.get(offered.server) ?? []) {
        if (pin.removedAt !== undefined || offeredKeys.has(pinId(pin))) continue;
        writes.push({ ...pin, removedAt: now, changedAt: now });
        events.push({ server: pin.server, kind: pin.kind as DefinitionKind, name: pin.name, change: 'removed', before: pin.hash, after: pin.hash, outcome: 'removed', reason: 'no longer offered; its pin is kept', findings: [] });
      }
    }
    if (writes.length === 0) return events;
    await this.store.put(writes);
    for (const p of writes) this.pins.set(pinId(p), p);
    return events;
  }

  /** Every pin an operator looks at (enrolments left out), from the store: another replica may have changed one. */
  async list(): Promise<DefinitionPin[]> {
    await this.load();
    return [...this.pins.values()].filter((p) => p.kind !== 'server');
  }

  /**
   * An operator trusts (approve) or refuses (reject) a definition as last seen. With `hash`, only that exact
   * pin: a definition that changed again after the operator looked at it is not approved unseen.
   */
  async decide(target: { server: string; kind: DefinitionKind; name: string; hash?: string }, approve: boolean, by: string): Promise<{ pin: DefinitionPin; event: DefinitionEvent }> {
    const pin = await this.store.get(target.server, target.kind, target.name);
    if (!pin) throw new Error(`no ${target.kind} "${target.name}" of server "${target.server}" has been seen`);
    if (target.hash !== undefined && target.hash !== pin.hash) throw new StaleDefinition(`the ${target.kind} "${target.name}" changed again since it was shown (pin ${pin.hash.slice(0, 12)}, not ${target.hash.slice(0, 12)}); look at it again`);
    const next: DefinitionPin = approve
      ? { ...withoutTrusted(pin), status: 'trusted', trustedHash: pin.hash, changedAt: this.now() }
      : { ...pin, status: 'rejected', changedAt: this.now() };
    await this.store.put([next]);
    this.pins.set(pinId(next), next);
    const event: DefinitionEvent = {
      server: pin.server,
      kind: target.kind,
      name: pin.name,
      change: approve ? 'approved' : 'rejected',
      before: pin.trustedHash,
      after: pin.hash,
      outcome: approve ? 'approved' : 'rejected',
      reason: approve ? 'an operator approved this definition' : 'an operator rejected this definition',
      findings: pin.findings.map(describe),
      by,
    };
    return { pin: next, event };
  }
}

/** What policy makes of a new or changed definition, and why, in words an operator reads. */
function decide(pin: DefinitionPin | undefined, hash: string, findings: DefinitionFinding[], policy: DefinitionsPolicy, enrolled: boolean): { trust: boolean; reason: string } {
  if (pin?.trustedHash === hash) return { trust: true, reason: 'back to the definition last trusted' };
  const changed = pin?.trustedHash !== undefined;
  const what = changed ? 'changed since it was trusted' : enrolled || policy.new ? 'new' : 'new, on a server added after the first start';
  const flagged = isFlagged(findings) ? `the definition scanner flagged it (${summary(findings)})` : undefined;
  if (flagged && policy.flagged === 'quarantine') return { trust: false, reason: `${what}, and ${flagged}` };
  const rule = changed ? policy.changed : (policy.new ?? (enrolled ? 'allow' : 'quarantine'));
  if (rule === 'quarantine') return { trust: false, reason: `${what}; waits for approval` };
  const by = changed ? 'changed: allow' : policy.new ? 'new: allow' : 'the server was there at the first start';
  return { trust: true, reason: `${what}; allowed (${by})${flagged ? `; ${flagged}, allowed by policy (flagged: ${policy.flagged})` : ''}` };
}

function quarantineReason(pin: DefinitionPin): string {
  const what = pin.trustedHash ? 'it changed since it was trusted' : 'it is new';
  return isFlagged(pin.findings) ? `${what}, and the definition scanner flagged it (${summary(pin.findings)})` : pin.trustedHash ? what : `${what} and waits for approval`;
}

const describe = (f: DefinitionFinding | DefinitionPin['findings'][number]) => `${f.rule} (${f.severity}) in ${f.where}: ${f.evidence}`;

function summary(findings: readonly { rule: string; severity: string }[]): string {
  const rules = [...new Set(findings.filter((f) => f.severity !== 'low').map((f) => f.rule))];
  return rules.join(', ');
}

/** The pin of what cannot be serialised (only a library caller can hand such a thing in: the edge caps depth). */
const UNREADABLE = 'unreadable';

function hashable(kind: DefinitionKind, entry: Record<string, unknown>): string {
  try {
    return pinOf(kind, entry);
  } catch {
    return UNREADABLE;
  }
}

function withoutTrusted(pin: DefinitionPin): DefinitionPin {
  const { trusted: _t, ...rest } = pin;
  return rest;
}

function serverPin(server: string, now: string): DefinitionPin {
  return { server, kind: 'server', name: server, hash: '', definition: null, status: 'trusted', findings: [], firstSeen: now, changedAt: now };
}
