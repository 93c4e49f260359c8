import type { GatewayConfig, RoleConfig, ToolSecurity } from '../config/schema.js';
import type { Label } from '../ifc/label.js';
import type { Principal } from '../identity/principal.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { LabelStore, RateLimitStore, SwitchStore, TokenStore } from '../state/ports.js';
import type { Recorder, Refusal } from './decision.js';
import type { Hooks } from './hooks.js';
import { pathMatches } from './paths.js';
import { operationOf, ToolRules } from './rules.js';

/** What a human is asked to decide (the approvals queue, the console and the CLI answer it). */
export interface ApprovalRequest {
  principal: Principal;
  sessionId: string;
  transport?: string;
  tool: string;
  arguments: Params;
  /** The tool's definition as offered: a grant is for this definition, not for whatever the name means later. */
  definition?: Params;
  refusal: Refusal;
  label: Label;
  /** Tells the waiting client it is still waiting (progress), where it asked for progress. */
  keepAlive?: (message: string) => void;
  /** Asks the calling client's own user (elicitation); undefined when it cannot. */
  askClient?: (message: string) => Promise<boolean | undefined>;
}

export type Approver = (request: ApprovalRequest) => Promise<{ granted: boolean; reason?: string }>;

/** The collaborators the policy consults, built by the composition root and passed in. */
export interface SecurityPorts {
  labels: LabelStore;
  limits: RateLimitStore;
  switches: SwitchStore;
  tokens: TokenStore;
  hooks: Hooks;
  recorder: Recorder;
  /** Decides `approve` outcomes; without one they are refused with "needs approval". */
  approver?: Approver;
}

/**
 * The policy context: roles and their compiled rules, plus the ports every check consults. Immutable once
 * built — nothing is patched onto it later; the composition root decides what it gets.
 */
export class Security {
  readonly labels: LabelStore;
  readonly limits: RateLimitStore;
  readonly switches: SwitchStore;
  readonly tokens: TokenStore;
  readonly hooks: Hooks;
  readonly recorder: Recorder;
  readonly approver?: Approver;
  private readonly rules = new Map<string, ToolRules>();

  constructor(
    readonly config: GatewayConfig,
    ports: SecurityPorts,
  ) {
    this.labels = ports.labels;
    this.limits = ports.limits;
    this.switches = ports.switches;
    this.tokens = ports.tokens;
    this.hooks = ports.hooks;
    this.recorder = ports.recorder;
    this.approver = ports.approver;
    for (const role of Object.values(config.security.roles)) this.rules.set(role.name, new ToolRules(role));
    Object.freeze(this);
  }

  role(principal: Principal | undefined): RoleConfig | undefined {
    const name = principal?.role;
    return name !== undefined && Object.hasOwn(this.config.security.roles, name) ? this.config.security.roles[name] : undefined;
  }

  toolRules(role: RoleConfig): ToolRules {
    return this.rules.get(role.name) ?? new ToolRules(role);
  }

  /** The resources a principal may see: none without a role; with one, those its resource rules let it read. */
  visibleResources(principal: Principal | undefined, resources: readonly Params[]): Params[] {
    const role = this.role(principal);
    if (!role) return [];
    const { allow, deny } = role.resources;
    if (allow.length === 0 && deny.length === 0) return resources as Params[];
    return resources.filter((r) => !pathMatches(deny, String(r.uri)) && (allow.length === 0 || pathMatches(allow, String(r.uri)) !== undefined));
  }

  /** Entries any caller with a role may see (prompts, templates): the rest is checked when used. */
  visibleToRole<T>(principal: Principal | undefined, entries: readonly T[]): readonly T[] {
    return this.role(principal) ? entries : [];
  }

  /**
   * The tools a principal may see: those its role does not deny, and for a read-only role only reads. A hidden
   * tool is also refused when called by name (the pipeline applies the same rules).
   */
  visibleTools(principal: Principal | undefined, tools: readonly Params[], securityOf: (merged: string) => ToolSecurity | undefined): Params[] {
    const role = this.role(principal);
    if (!role) return [];
    const rules = this.toolRules(role);
    return tools.filter((t) => {
      const name = String(t.name);
      if (rules.evaluate(name).policy === 'deny') return false;
      if (!role.readOnly) return true;
      return operationOf(t, securityOf(name)) === 'read';
    });
  }
}
