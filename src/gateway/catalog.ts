import type { ServerConfig } from '../config/schema.js';
import type { DefinitionGuard, Verdict } from '../definitions/guard.js';
import { INSTRUCTIONS } from '../definitions/offer-scan.js';
import type { DefinitionKind } from '../definitions/pin.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { Upstream } from '../upstream/upstream.js';
import { mergedName } from './names.js';
import { templateMatcher } from '../protocol/uri-template.js';

/** Where a merged tool or prompt name leads: the server that owns it and the name it knows it by. */
export interface Route {
  upstream: Upstream;
  name: string;
}

interface TemplateOwner {
  template: string;
  matcher: RegExp;
  upstream: Upstream;
}

/** A definition held back by the definition guard: not listed, and refused by name with this reason. */
export interface Held {
  server: string;
  kind: DefinitionKind;
  /** The server's own name (a URI or template for resources). */
  name: string;
  status: 'quarantined' | 'rejected' | 'unreviewed';
  reason: string;
}

/**
 * Everything the ready upstreams offer, merged under clear names. Rebuilt whenever an upstream's lists change;
 * lookups on the hot path are single Map reads.
 *
 * Names: tools and prompts become `<prefix><separator><name>`. If two entries still end up with one name,
 * neither is offered — a call must never reach a server it was not meant for just because another one went
 * down — and the clash is reported in `conflicts` (and /readyz).
 *
 * URIs: resources keep their URIs. When two servers list the same URI, the server declared first in the
 * config owns it (config order, not connection order, so the owner does not change when servers restart);
 * the other entry is hidden and reported. Templates are tried in config order after exact URIs.
 *
 * Definitions: with a guard, only what it shows is merged; what it holds back (quarantined, rejected, not yet
 * reviewed) is kept in `held`, so a call by name gets the reason rather than "unknown". A server whose flagged
 * definitions are let through as `untrusted` has what it returns labelled untrusted (`configOf`).
 */
export class Catalog {
  readonly tools: Params[] = [];
  readonly prompts: Params[] = [];
  readonly resources: Params[] = [];
  readonly resourceTemplates: Params[] = [];
  readonly toolRoutes = new Map<string, Route>();
  /** Merged tool definitions by merged name (annotations and schemas for the chokepoint). */
  readonly toolDefinitions = new Map<string, Params>();
  readonly promptRoutes = new Map<string, Route>();
  readonly conflicts: string[] = [];
  /** Held-back tools and prompts by merged name, resources by URI. */
  readonly heldTools = new Map<string, Held>();
  readonly heldPrompts = new Map<string, Held>();
  private readonly heldResources = new Map<string, Held>();
  private readonly heldTemplates: (Held & { matcher: RegExp })[] = [];
  /** Servers whose instructions are held back. */
  readonly heldInstructions = new Set<string>();
  private readonly untrusted = new Map<string, ServerConfig>();
  private readonly resourceOwners = new Map<string, Upstream>();
  private readonly templateOwners: TemplateOwner[] = [];
  private readonly resourceServers: Upstream[] = [];

  constructor(
    upstreams: readonly Upstream[],
    separator: string,
    private readonly guard?: DefinitionGuard,
  ) {
    const ready = upstreams.filter((u) => u.state === 'ready');
    this.mergeNamed('tools', ready, separator, this.tools, this.toolRoutes);
    for (const t of this.tools) this.toolDefinitions.set(String(t.name), t);
    this.mergeNamed('prompts', ready, separator, this.prompts, this.promptRoutes);
    for (const u of ready) {
      if (u.capabilities.resources) this.resourceServers.push(u);
      if (u.instructions && !this.admit(u, 'instructions', INSTRUCTIONS, u.instructions)) this.heldInstructions.add(u.name);
      for (const r of u.lists.resources) {
        const uri = String(r.uri);
        if (!this.admit(u, 'resource', uri, r, (held) => this.heldResources.set(uri, held))) continue;
        const owner = this.resourceOwners.get(uri);
        if (owner) {
          this.conflicts.push(`resource ${uri} is offered by "${owner.name}" and "${u.name}"; "${owner.name}" (first in config) owns it`);
          continue;
        }
        this.resourceOwners.set(uri, u);
        this.resources.push(r);
      }
      for (const t of u.lists.resourceTemplates) {
        const template = String(t.uriTemplate);
        if (!this.admit(u, 'resource-template', template, t, (held) => this.heldTemplates.push({ ...held, matcher: templateMatcher(template) }))) continue;
        this.templateOwners.push({ template, matcher: templateMatcher(template), upstream: u });
        this.resourceTemplates.push(t);
      }
    }
  }

  /**
   * Whether the guard shows this definition; when it does not, `hold` keeps the reason. A server with a flagged
   * definition let through as untrusted gets a config whose label is untrusted, for everything it returns.
   */
  private admit(u: Upstream, kind: DefinitionKind, name: string, entry: Params | string, hold?: (held: Held) => void): boolean {
    if (!this.guard) return true;
    const verdict: Verdict = this.guard.verdict(u.name, kind, name, entry, u.config.definitions);
    if (!verdict.shown) {
      hold?.({ server: u.name, kind, name, status: verdict.status, reason: verdict.reason });
      return false;
    }
    if (verdict.untrusted && !this.untrusted.has(u.name)) this.untrusted.set(u.name, { ...u.config, label: { ...u.config.label, integrity: 'untrusted' } });
    return true;
  }

  /** How many of a server's definitions are held back (for status pages). */
  heldOf(server: string): number {
    const all = [...this.heldTools.values(), ...this.heldPrompts.values(), ...this.heldResources.values(), ...this.heldTemplates];
    return all.filter((h) => h.server === server).length + (this.heldInstructions.has(server) ? 1 : 0);
  }

  /** The server config a call through this upstream is checked with (its label lowered when it is untrusted). */
  configOf(upstream: Upstream): ServerConfig {
    return this.untrusted.get(upstream.name) ?? upstream.config;
  }

  private mergeNamed(kind: 'tools' | 'prompts', ready: Upstream[], separator: string, out: Params[], routes: Map<string, Route>): void {
    const claims = new Map<string, { entry: Params; route: Route }[]>();
    const held = kind === 'tools' ? this.heldTools : this.heldPrompts;
    for (const u of ready) {
      for (const entry of u.lists[kind]) {
        const name = String(entry.name);
        const merged = mergedName(u.config.prefix, separator, name);
        if (!this.admit(u, kind === 'tools' ? 'tool' : 'prompt', name, entry, (h) => held.set(merged, h))) continue;
        const list = claims.get(merged) ?? [];
        list.push({ entry: merged === name ? entry : { ...entry, name: merged }, route: { upstream: u, name } });
        claims.set(merged, list);
      }
    }
    for (const [merged, list] of claims) {
      if (list.length > 1) {
        const who = list.map((c) => `"${c.route.upstream.name}" (${c.route.name})`).join(', ');
        this.conflicts.push(`${kind === 'tools' ? 'tool' : 'prompt'} name "${merged}" is claimed by ${who}; none of them is offered until the names are made distinct (set a prefix)`);
        continue;
      }
      out.push(list[0].entry);
      routes.set(merged, list[0].route);
    }
  }

  /** The server a URI belongs to: an exact listed URI first, then the first matching template, then — when only one server offers resources at all — that one. */
  ownerOfUri(uri: string): Upstream | undefined {
    const exact = this.resourceOwners.get(uri);
    if (exact) return exact;
    for (const t of this.templateOwners) if (t.matcher.test(uri)) return t.upstream;
    if (this.heldUri(uri)) return undefined;
    return this.resourceServers.length === 1 ? this.resourceServers[0] : undefined;
  }

  /** Whether a server listed exactly this URI (rather than a client building it from a template, or making it up). */
  isListed(uri: string): boolean {
    return this.resourceOwners.has(uri);
  }

  /** A held-back resource, or template matching the URI, that no shown one answers for. */
  heldUri(uri: string): Held | undefined {
    if (this.resourceOwners.has(uri) || this.templateOwners.some((t) => t.matcher.test(uri))) return undefined;
    return this.heldResources.get(uri) ?? this.heldTemplates.find((t) => t.matcher.test(uri));
  }

  /** The server that declared exactly this template string (completion requests name templates, not URIs). */
  ownerOfTemplate(template: string): Upstream | undefined {
    return this.templateOwners.find((t) => t.template === template)?.upstream;
  }
}
