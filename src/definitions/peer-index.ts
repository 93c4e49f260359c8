import type { PeerTool } from './scan-types.js';

/**
 * Every server's tools by name, built once per discovery: each definition is then checked against the tools
 * of the other servers without comparing every pair.
 */
export class PeerIndex {
  private readonly byName = new Map<string, PeerTool[]>();
  /** Each server's tools: name → description. */
  private readonly byServer = new Map<string, Map<string, string | undefined>>();
  /** `a\u0000b`: whether every tool of a is one of b's, word for word (cached, shared by the views). */
  private readonly twins = new Map<string, boolean>();

  constructor(
    tools: readonly PeerTool[],
    /** The server whose definitions are scanned: its own tools are siblings, not peers. */
    private readonly except?: string,
  ) {
    for (const t of tools) {
      const key = t.name.toLowerCase();
      const list = this.byName.get(key);
      if (list) list.push(t);
      else this.byName.set(key, [t]);
      const own = this.byServer.get(t.server) ?? this.byServer.set(t.server, new Map()).get(t.server)!;
      own.set(t.name, t.description);
    }
  }

  /** The same index, seen from one server. */
  from(server: string): PeerIndex {
    const view = Object.create(PeerIndex.prototype) as PeerIndex;
    Object.assign(view, { byName: this.byName, byServer: this.byServer, twins: this.twins, except: server });
    return view;
  }

  /**
   * Whether the server being scanned is another instance of `other` — every one of its tools is one of the
   * other's, name and description alike — as when one server is configured twice with different roots. A copy
   * of that kind shadows nothing; a copycat brings tools of its own beside the copy.
   */
  twinOf(other: string): boolean {
    if (this.except === undefined) return false;
    const key = `${this.except}\u0000${other}`;
    let twin = this.twins.get(key);
    if (twin === undefined) {
      const mine = this.byServer.get(this.except);
      const theirs = this.byServer.get(other);
      twin = !!mine && !!theirs && [...mine].every(([name, description]) => theirs.has(name) && theirs.get(name) === description);
      this.twins.set(key, twin);
    }
    return twin;
  }

  named(name: string): PeerTool[] {
    const list = this.byName.get(name.toLowerCase());
    if (!list) return [];
    return this.except === undefined ? list : list.filter((t) => t.server !== this.except);
  }

  /** Whether the server being scanned has a tool of this name itself: naming it names a sibling. */
  ownHas(name: string): boolean {
    return this.except !== undefined && (this.byName.get(name.toLowerCase()) ?? []).some((t) => t.server === this.except);
  }

  /**
   * Whether `peer` had its name before the server being scanned did (config order): a copy is the later one, so
   * only an earlier peer can be copied. With no tool of that name of its own in the index, every peer is earlier.
   */
  precedes(peer: PeerTool): boolean {
    const list = this.byName.get(peer.name.toLowerCase()) ?? [];
    const own = list.findIndex((t) => t.server === this.except);
    return own < 0 || list.indexOf(peer) < own;
  }

  get size(): number {
    return this.byName.size;
  }
}
