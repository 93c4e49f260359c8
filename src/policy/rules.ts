import picomatch from 'picomatch';
import type { Policy } from '../config/security-schema.js';
import type { RoleConfig, ToolSecurity } from '../config/schema.js';
import type { Params } from '../protocol/jsonrpc.js';

const STRICTNESS: Record<Policy, number> = { allow: 0, approve: 1, deny: 2 };

type Matcher = (name: string) => boolean;

/**
 * A glob matcher for merged tool names. Names are compared exactly as merged: no case folding and no
 * Unicode normalisation, so `FILES__write_file` or a look-alike letter never matches `files__write_file`.
 */
export function nameMatcher(glob: string): Matcher {
  return picomatch(glob, { nocase: false, dot: true, nobrace: false });
}

const matchers = new Map<string, Matcher>();

/** Whether a merged name matches a glob (compiled once per glob). */
export function matchName(glob: string, name: string): boolean {
  let m = matchers.get(glob);
  if (!m) matchers.set(glob, (m = nameMatcher(glob)));
  return m(name);
}

export interface ToolVerdict {
  policy: Policy;
  /** The rule that decided (its glob), or "default". */
  rule: string;
}

/** Compiled tool rules of one role: every matching rule counts, the most restrictive wins. */
export class ToolRules {
  private readonly rules: { glob: string; policy: Policy; match: Matcher }[];
  private readonly cache = new Map<string, ToolVerdict>();

  constructor(private readonly role: RoleConfig) {
    this.rules = role.tools.map(([glob, policy]) => ({ glob, policy, match: nameMatcher(glob) }));
  }

  evaluate(name: string): ToolVerdict {
    const cached = this.cache.get(name);
    if (cached) return cached;
    let verdict: ToolVerdict | undefined;
    for (const r of this.rules) {
      if (!r.match(name)) continue;
      if (!verdict || STRICTNESS[r.policy] > STRICTNESS[verdict.policy]) verdict = { policy: r.policy, rule: r.glob };
    }
    verdict ??= { policy: this.role.default, rule: 'default' };
    if (this.cache.size < 10_000) this.cache.set(name, verdict);
    return verdict;
  }
}

/**
 * Read or write. Config wins; otherwise only a tool that declares `readOnlyHint: true` is a read. No
 * annotation means write: we do not guess from the name.
 */
export function operationOf(tool: Params | undefined, security: ToolSecurity | undefined): 'read' | 'write' {
  if (security?.operation) return security.operation;
  const annotations = tool?.annotations as { readOnlyHint?: unknown } | undefined;
  return annotations?.readOnlyHint === true ? 'read' : 'write';
}

/**
 * Whether a tool can carry data out of the trust boundary: the operator's word per tool, then per server, then
 * the tool's `openWorldHint` — which MCP defaults to true, so a tool that says nothing counts as open-world.
 */
export function isOpenWorld(tool: Params | undefined, security: ToolSecurity | undefined, serverOpenWorld: boolean | undefined): boolean {
  if (security?.openWorld !== undefined) return security.openWorld;
  if (serverOpenWorld !== undefined) return serverOpenWorld;
  const hint = (tool?.annotations as { openWorldHint?: unknown } | undefined)?.openWorldHint;
  return hint !== false;
}

/** The security settings of a tool by its upstream name, looked up as an own property only. */
export function toolSecurity(tools: Record<string, ToolSecurity>, name: string): ToolSecurity | undefined {
  return Object.hasOwn(tools, name) ? tools[name] : undefined;
}
