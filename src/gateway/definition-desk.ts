import { definitionDiff, type DiffLine } from '../definitions/diff.js';
import type { DefinitionKind } from '../definitions/pin.js';
import { trustedDefinition, type DefinitionPin } from '../state/ports.js';
import type { Gateway } from './gateway.js';
import { mergedName } from './names.js';

/** A pinned definition as the operator lists it: no definitions, just what it is and where it stands. */
export interface DefinitionView {
  server: string;
  kind: DefinitionKind;
  /** The server's own name (a URI or template for resources). */
  name: string;
  /** The name a client sees: merged tool and prompt names carry the server's prefix. */
  shownAs: string;
  status: DefinitionPin['status'];
  hash: string;
  trustedHash?: string;
  findings: DefinitionPin['findings'];
  firstSeen: string;
  changedAt: string;
  /** The server no longer offers it (since then). */
  removedAt?: string;
}

export interface DefinitionDiff extends DefinitionView {
  /** The definition last trusted (unset while none was) and the one last seen. */
  trusted?: unknown;
  definition: unknown;
  lines: DiffLine[];
}

/** How an operator names a definition: the name a client sees, or the server's own; server and kind narrow it. */
export interface DefinitionQuery {
  name: string;
  server?: string;
  kind?: string;
}

export class DefinitionNotFound extends Error {}
export class AmbiguousDefinition extends Error {}

/**
 * The operator's side of the definition guard (`sluice definitions …`, the console's quarantine queue): list
 * the pins, show what changed, approve or reject. A decision is recorded, then every catalog is rebuilt — here,
 * and through the bus on the other replicas — so an approved definition is back at once.
 */
export class DefinitionDesk {
  constructor(private readonly gateway: Gateway) {}

  async list(): Promise<DefinitionView[]> {
    const pins = await this.gateway.definitions.list();
    const order = new Map(this.gateway.config.servers.map((s, i) => [s.name, i]));
    return pins.map((p) => this.view(p)).sort((a, b) => rank(a) - rank(b) || (order.get(a.server) ?? 1e9) - (order.get(b.server) ?? 1e9) || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
  }

  async diff(query: DefinitionQuery): Promise<DefinitionDiff> {
    const pin = await this.find(query);
    const trusted = trustedDefinition(pin);
    return { ...this.view(pin), trusted, definition: pin.definition, lines: definitionDiff(trusted, pin.definition, pin.findings) };
  }

  /** Approves or rejects the definition as last seen; with `hash`, only if it is still that one. */
  async decide(query: DefinitionQuery & { hash?: string }, approve: boolean, by: string): Promise<DefinitionView> {
    const pin = await this.find(query);
    const { pin: decided, event } = await this.gateway.definitions.decide({ server: pin.server, kind: pin.kind as DefinitionKind, name: pin.name, hash: query.hash }, approve, by);
    await this.gateway.recordDefinition(event);
    await this.gateway.definitionsChanged(pin.server);
    return this.view(decided);
  }

  private async find(query: DefinitionQuery): Promise<DefinitionPin> {
    const pins = (await this.gateway.definitions.list()).filter((p) => (query.server === undefined || p.server === query.server) && (query.kind === undefined || p.kind === query.kind));
    const byShown = pins.filter((p) => this.shownAs(p) === query.name);
    const found = byShown.length > 0 ? byShown : pins.filter((p) => p.name === query.name);
    if (found.length === 0) throw new DefinitionNotFound(`no definition "${query.name}"${query.server ? ` of server "${query.server}"` : ''}${query.kind ? ` of kind ${query.kind}` : ''} has been seen (see \`sluice definitions list\`)`);
    if (found.length > 1) throw new AmbiguousDefinition(`"${query.name}" names ${found.length} definitions (${found.map((p) => `${p.kind} of ${p.server}`).join(', ')}); add --server or --kind`);
    return found[0];
  }

  private view(p: DefinitionPin): DefinitionView {
    const { definition: _d, trusted: _t, ...rest } = p;
    return { ...rest, kind: p.kind as DefinitionKind, shownAs: this.shownAs(p) };
  }

  private shownAs(p: DefinitionPin): string {
    if (p.kind !== 'tool' && p.kind !== 'prompt') return p.name;
    const server = this.gateway.config.servers.find((s) => s.name === p.server);
    return server ? mergedName(server.prefix, this.gateway.config.separator, p.name) : p.name;
  }
}

/** The queue first: quarantined, then rejected, then trusted. */
const rank = (v: DefinitionView) => (v.status === 'quarantined' ? 0 : v.status === 'rejected' ? 1 : 2);
