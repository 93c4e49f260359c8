import { EventEmitter } from 'node:events';
import type { GatewayConfig, RoleConfig, ToolSecurity } from '../config/schema.js';
import { LabelStore } from '../ifc/labels.js';
import type { Label } from '../ifc/label.js';
import { TokenStore } from '../identity/tokens.js';
import type { Principal } from '../identity/principal.js';
import type { Logger } from '../log.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { AuditLog } from '../audit/log.js';
import { recordOf } from '../audit/from-decision.js';
import type { DecisionEvent, Refusal } from './decision.js';
import { Hooks } from './hooks.js';
import { RateLimiter } from './rate-limit.js';
import { operationOf, ToolRules } from './rules.js';

/** What a human is asked to decide (wired to the console and CLI by the approvals work). */
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
  askClient?: (message: string, args: Params) => Promise<boolean | undefined>;
}

export type Approver = (request: ApprovalRequest) => Promise<{ granted: boolean; reason?: string }>;

/**
 * Everything the chokepoint consults: roles and their compiled rules, labels, rate limits, the pause switch,
 * hooks, and where decisions go. One per gateway.
 */
export class Security extends EventEmitter<{ decision: [DecisionEvent] }> {
  readonly labels = new LabelStore();
  readonly limiter = new RateLimiter();
  readonly tokens: TokenStore;
  readonly hooks: Hooks;
  paused = false;
  /** Decides `approve` outcomes; until one is set, they are refused with "needs approval". */
  approver?: Approver;
  /** Where decisions are kept; none in library use and some tests. */
  audit?: AuditLog;
  auditFieldBytes = 1024;
  private readonly rules = new Map<string, ToolRules>();

  constructor(
    readonly config: GatewayConfig,
    private readonly log: Logger,
  ) {
    super();
    this.tokens = new TokenStore(config.security.tokensFile);
    this.hooks = new Hooks(config.security.hooks, (module, error) => log.error({ hook: module, error }, 'hook failed'));
  }

  start(): Promise<void> {
    return this.hooks.load();
  }

  role(principal: Principal | undefined): RoleConfig | undefined {
    const name = principal?.role;
    return name !== undefined && Object.hasOwn(this.config.security.roles, name) ? this.config.security.roles[name] : undefined;
  }

  toolRules(role: RoleConfig): ToolRules {
    let rules = this.rules.get(role.name);
    if (!rules) this.rules.set(role.name, (rules = new ToolRules(role)));
    return rules;
  }

  /**
   * The tools a principal may see: those its role does not deny, and for a read-only role only reads. A hidden
   * tool is also refused when called by name (the chokepoint applies the same rules).
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

  /**
   * Records a decision: logged, announced, and — with an audit log — durable once the promise resolves.
   * Callers await it before a result goes out.
   */
  async record(event: DecisionEvent): Promise<void> {
    if (this.log.isLevelEnabled('info')) this.log.info({ decision: event }, `${event.method} ${event.target}: ${event.outcome}${event.reason ? ` (${event.reason})` : ''}`);
    this.emit('decision', event);
    if (this.audit) await this.audit.write(recordOf(event, this.auditFieldBytes));
  }
}
