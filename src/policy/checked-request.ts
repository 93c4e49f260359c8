import type { TraceCarrier } from '../lifecycle.js';
import type { RoleConfig, ServerConfig, ToolSecurity } from '../config/schema.js';
import type { Finding } from '../filters/scan.js';
import type { Label } from '../ifc/label.js';
import type { Principal } from '../identity/principal.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { LabelHolder } from '../state/ports.js';
import type { Refusal, Step } from './decision.js';
import type { Hidden } from './denied-below.js';
import type { CheckedMethod } from './methods.js';
import type { ResourceUriCheck } from './resource-uri.js';
import type { Security } from './security.js';

/**
 * What the pipeline works on: a checked request as the handlers hand it in, what it resolves to, where its data
 * goes, and the state the steps (steps.ts) build up as it moves through them.
 */

/** What a name or URI leads to once resolved in the caller's catalog. */
export interface Resolved {
  server: ServerConfig;
  /** The name the upstream knows the tool or prompt by (for a resource, its URI). */
  upstreamName: string;
  /** The merged definition as offered (tools: annotations and input schema). */
  definition?: Params;
  /** A resource URI the server listed itself, rather than one a client built (from a template, or made up). */
  listed?: boolean;
}

/** One checked request — a method the table in methods.ts marks `checked` — as the front of the pipeline hands it in. */
export interface CheckedRequest {
  method: CheckedMethod;
  security: Security;
  principal: Principal | undefined;
  holder: LabelHolder;
  transport: string;
  /** The tool or prompt name, or the URI, exactly as the client sent it. */
  target: string;
  arguments: Params;
  /**
   * Whatever else the request forwards beside the arguments — other params fields, `_meta`, a retry's answers
   * to the server's questions: outgoing data too, scanned with the arguments by the information-flow step.
   */
  outgoing?: Params;
  /**
   * Looks the target up in the caller's catalog; undefined when nothing by that name is offered, `heldBack`
   * when something is but may not be used (a quarantined definition): refused with that reason.
   */
  resolve(): Resolved | { heldBack: string } | undefined;
  /**
   * Runs the request with the arguments as checked. `approved`: a human approved it on the way; `destination`:
   * where its data goes, as information flow judged it (what the upstream asks the client meanwhile is
   * answered into the same place).
   */
  execute(resolved: Resolved, args: Params, run: ExecuteContext): Promise<Params>;
  /**
   * A retry of a call a human approved before it was parked for the client's input (the sealed requestState
   * says so, bound to this very call): the approval is not asked again. Every other check runs again.
   */
  approvedBefore?: boolean;
  /** Ties this request's records together. */
  traceId?: string;
  /** The request's trace, when a tracer listens: each step becomes a span of it. */
  trace?: TraceCarrier;
  /** Keeps a client that waits for an approval informed (progress notifications). */
  keepAlive?: (message: string) => void;
  /** Asks the client's own user to approve (elicitation), when it can. */
  askClient?: (message: string) => Promise<boolean | undefined>;
}

/** Where a request's data goes, as information flow judges it (unknown: open-world, public). */
export interface Destination {
  egress: boolean;
  clearance: Label['confidentiality'];
  requireTrusted: boolean;
}

export const OPEN_DESTINATION: Destination = Object.freeze({ egress: true, clearance: 'public', requireTrusted: false });

export interface ExecuteContext {
  approved: boolean;
  destination: Destination;
}

/** What the steps build up as the request moves through them. */
export interface RequestState {
  req: CheckedRequest;
  /** Set by `authenticate`. */
  role?: RoleConfig;
  /** Set by `resolve`. */
  resolved?: Resolved;
  toolSec?: ToolSecurity;
  operation: 'read' | 'write';
  /** Its arguments can leave the trust boundary: a write, or an open-world tool (set by `resolve`). */
  egress: boolean;
  args: Params;
  /** `args` as they are now were scanned with every detector (by the flow step) and held nothing. */
  argsClean?: boolean;
  /** Canonical paths the call touches (after the paths step). */
  paths: string[];
  /** A resource URI as checked and forwarded (worked out by the first step that needs it). */
  resource?: ResourceUriCheck;
  /** Folders a read names with denied entries below them, which its result must not show (paths step). */
  hidden?: Hidden[];
  result?: Params;
  findings: Finding[];
  labelAfter?: Label;
  /** A human approved the request in this run (or before it was parked). */
  approved?: boolean;
}

export type StepFn = (s: RequestState) => Refusal | undefined | Promise<Refusal | undefined>;

export const deny = (step: Step, reason: string, rule?: string): Refusal => ({ outcome: 'deny', step, reason, rule });
