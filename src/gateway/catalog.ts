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
  private readonly resourceOwners = new Map<string, Upstream>();
  private readonly templateOwners: TemplateOwner[] = [];
  private readonly resourceServers: Upstream[] = [];

  constructor(upstreams: readonly Upstream[], separator: string) {
    const ready = upstreams.filter((u) => u.state === 'ready');
    this.mergeNamed('tools', ready, separator, this.tools, this.toolRoutes);
    for (const t of this.tools) this.toolDefinitions.set(String(t.name), t);
    this.mergeNamed('prompts', ready, separator, this.prompts, this.promptRoutes);
    for (const u of ready) {
      if (u.capabilities.resources) this.resourceServers.push(u);
      for (const r of u.lists.resources) {
        const uri = String(r.uri);
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
        this.templateOwners.push({ template, matcher: templateMatcher(template), upstream: u });
        this.resourceTemplates.push(t);
      }
    }
  }

  private mergeNamed(kind: 'tools' | 'prompts', ready: Upstream[], separator: string, out: Params[], routes: Map<string, Route>): void {
    const claims = new Map<string, { entry: Params; route: Route }[]>();
    for (const u of ready) {
      for (const entry of u.lists[kind]) {
        const name = String(entry.name);
        const merged = mergedName(u.config.prefix, separator, name);
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
    return this.resourceServers.length === 1 ? this.resourceServers[0] : undefined;
  }

  /** The server that declared exactly this template string (completion requests name templates, not URIs). */
  ownerOfTemplate(template: string): Upstream | undefined {
    return this.templateOwners.find((t) => t.template === template)?.upstream;
  }
}
