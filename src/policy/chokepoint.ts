import type { RoleConfig, ServerConfig, ToolSecurity } from '../config/schema.js';
import { scanPayload, type Finding } from '../filters/scan.js';
import { flowsTo, join, type Label } from '../ifc/label.js';
import type { LabelHolder } from '../ifc/labels.js';
import type { Principal } from '../identity/principal.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { Refusal, Step } from './decision.js';
import { findingsLabel } from './findings.js';
import { checkPaths, pathMatches } from './paths.js';
import type { Security } from './security.js';
import { matchName, operationOf, toolSecurity } from './rules.js';

/** Everything the chokepoint needs to know about one tools/call. */
export interface ToolCall {
  security: Security;
  principal: Principal | undefined;
  holder: LabelHolder;
  transport: string;
  /** The merged name the client called. */
  name: string;
  arguments: Params;
  /** The merged tool definition (annotations, input schema). */
  tool: Params | undefined;
  server: ServerConfig;
  /** The tool's own name on its server. */
  upstreamName: string;
  execute(args: Params): Promise<Params>;
  /** Ties this call's records together. */
  traceId?: string;
  /** Keeps a client that waits for an approval informed (progress notifications). */
  keepAlive?: (message: string) => void;
  /** Asks the client's own user to approve (elicitation), when it can. */
  askClient?: (message: string, args: Params) => Promise<boolean | undefined>;
}

/** What the steps build up as the call moves through them. */
interface CallState {
  call: ToolCall;
  role: RoleConfig;
  args: Params;
  toolSec: ToolSecurity | undefined;
  operation: 'read' | 'write';
  /** Canonical paths the call touches (after the path step). */
  paths: string[];
}

type PreStep = (s: CallState) => Refusal | undefined | Promise<Refusal | undefined>;

const deny = (step: Step, reason: string, rule?: string): Refusal => ({ outcome: 'deny', step, reason, rule });

// ---- the steps, in order ---------------------------------------------------------------------------------

const pause: PreStep = (s) => (s.call.security.paused ? deny('pause', 'sluice is paused by the operator') : undefined);

const rateLimit: PreStep = (s) => {
  const limit = s.role.rateLimit;
  if (!limit) return undefined;
  const agent = s.call.principal!.agent;
  const overall = s.call.security.limiter.take(`agent:${agent}`, limit);
  if (!overall.ok) return deny('rate-limit', `rate limit exceeded; retry in ${(overall.retryAfterMs / 1000).toFixed(1)} s`, `${limit.perSecond}/s`);
  for (const [glob, bucket] of limit.tools) {
    if (!matchName(glob, s.call.name)) continue;
    const perTool = s.call.security.limiter.take(`agent:${agent}:tool:${glob}`, bucket);
    if (!perTool.ok) return deny('rate-limit', `rate limit for ${glob} exceeded; retry in ${(perTool.retryAfterMs / 1000).toFixed(1)} s`, glob);
  }
  return undefined;
};

const toolRule: PreStep = (s) => {
  const verdict = s.call.security.toolRules(s.role).evaluate(s.call.name);
  if (verdict.policy === 'deny') return deny('tool-rule', `role "${s.role.name}" may not call ${s.call.name}`, verdict.rule);
  if (verdict.policy === 'approve') return { outcome: 'approve', step: 'tool-rule', rule: verdict.rule, reason: `calls to ${s.call.name} need a human's approval` };
  return undefined;
};

const operation: PreStep = (s) =>
  s.operation === 'write' && s.role.readOnly ? deny('operation', `role "${s.role.name}" is read-only and ${s.call.name} is a write tool`) : undefined;

const paths: PreStep = async (s) => {
  const base = s.call.server.transport === 'stdio' ? s.call.server.cwd : undefined;
  const checked = await checkPaths(s.args, s.call.tool?.inputSchema as Params | undefined, s.toolSec?.paths, s.role, base);
  if (!checked.ok) return deny('paths', checked.reason, checked.rule);
  s.args = checked.arguments;
  s.paths = checked.paths;
  return undefined;
};

/**
 * No write-down: what the session holds (and what the arguments themselves carry — a secret pasted into a
 * write) may only go to a tool cleared for it; an untrusted session may not drive a trusted-only tool.
 */
const informationFlow: PreStep = (s) => {
  if (s.operation !== 'write') return undefined;
  const held = s.call.security.labels.of(s.call.holder);
  const carried = findingsLabel(scanPayload(s.args, { secret: 'label', pii: 'label', injection: 'label' }).findings);
  const outgoing = join(held, carried);
  const clearance = s.toolSec?.clearance ?? 'public';
  let reason: string | undefined;
  if (!flowsTo(outgoing.confidentiality, clearance)) {
    reason = `the session holds ${outgoing.confidentiality} data and ${s.call.name} is cleared for ${clearance} only`;
  } else if (s.toolSec?.requireTrusted && outgoing.integrity === 'untrusted') {
    reason = `the session has read untrusted data and ${s.call.name} accepts trusted sessions only`;
  }
  if (!reason) return undefined;
  const policy = s.role.onFlowViolation;
  if (policy === 'allow') return undefined;
  return { outcome: policy, step: 'information-flow', rule: `clearance ${clearance}${s.toolSec?.requireTrusted ? ', trusted only' : ''}`, reason };
};

const preHooks: PreStep = async (s) => {
  const hooks = s.call.security.hooks;
  if (hooks.empty) return undefined;
  const outcome = await hooks.run('pre', { tool: s.call.name, agent: s.call.principal!.agent, arguments: s.args });
  if (!outcome.ok) return deny('pre-hook', outcome.reason, outcome.rule);
  s.args = outcome.arguments;
  return undefined;
};

/** The security model, top to bottom. Authentication happened at the transport; the principal is checked first. */
const STEPS: readonly [Step, PreStep][] = [
  ['pause', pause],
  ['rate-limit', rateLimit],
  ['tool-rule', toolRule],
  ['operation', operation],
  ['paths', paths],
  ['information-flow', informationFlow],
  ['pre-hook', preHooks],
];

// ---- the pipeline --------------------------------------------------------------------------------------

/**
 * The only way to a tool. Runs the ordered, fail-closed steps; executes; filters and labels the result;
 * records the decision; returns. Every refusal is a tool error the model can read, never a protocol error.
 */
export async function runToolCall(call: ToolCall): Promise<Params> {
  const started = performance.now();
  const security = call.security;
  const labelBefore = security.labels.of(call.holder);
  const record = (outcome: 'allow' | 'deny' | 'approve' | 'error', extra: Partial<Parameters<Security['record']>[0]> = {}) =>
    security.record({
      time: new Date().toISOString(),
      agent: call.principal?.agent ?? '(none)',
      session: call.holder.id,
      transport: call.transport,
      method: 'tools/call',
      target: call.name,
      upstream: call.server.name,
      outcome,
      labelBefore,
      labelAfter: security.labels.of(call.holder),
      durationMs: performance.now() - started,
      traceId: call.traceId,
      ...extra,
    });
  const refuse = async (r: Refusal) => {
    // A refusal goes back even if it could not be recorded: refusing is the safe side.
    await record(r.outcome, { step: r.step, rule: r.rule, reason: r.reason, arguments: call.arguments }).catch(() => undefined);
    return refusalResult(r);
  };

  const role = security.role(call.principal);
  if (!call.principal || !role) return refuse(deny('authenticate', 'no identity with a role is attached to this session'));
  const toolSec = toolSecurity(call.server.tools, call.upstreamName);
  const state: CallState = { call, role, args: call.arguments, toolSec, operation: operationOf(call.tool, toolSec), paths: [] };

  for (const [name, step] of STEPS) {
    let refusal: Refusal | undefined;
    try {
      refusal = await step(state);
    } catch (err) {
      // A check that cannot decide says no.
      refusal = deny(name, `the ${name} check failed: ${(err as Error).message}`);
    }
    if (!refusal) continue;
    if (refusal.outcome === 'approve') {
      const decided = await askApproval(security, call, state, refusal);
      if (decided) return refuse(decided);
      continue;
    }
    return refuse(refusal);
  }

  let result: Params;
  try {
    result = await call.execute(state.args);
  } catch (err) {
    await record('error', { step: 'execute', reason: (err as Error).message, arguments: state.args }).catch(() => undefined);
    throw err;
  }

  const filtered = scanPayload(result, role.filters);
  const blocked = filtered.findings.find((f) => role.filters[f.category] === 'block');
  if (blocked) return refuse(deny('content-filter', `the result contained ${describe(blocked)} and was withheld`, blocked.kind));
  result = filtered.value;

  if (!security.hooks.empty) {
    const post = await security.hooks.run('post', { tool: call.name, agent: call.principal.agent, arguments: state.args, result });
    if (!post.ok) return refuse(deny('post-hook', post.reason, post.rule));
    result = post.result ?? result;
  }

  const seen = join(resultLabel(state), findingsLabel(filtered.findings.filter((f) => role.filters[f.category] === 'label')));
  security.labels.raise(call.holder, seen);
  try {
    // Durable before the client sees it: a result whose record could not be written is not handed out.
    const clean = filtered.findings.length === 0 && !Object.values(role.filters).includes('off') && security.hooks.empty;
    await record('allow', { arguments: state.args, result, resultClean: clean, findings: filtered.findings.map(describe), traceId: call.traceId });
  } catch (err) {
    return refusalResult(deny('execute', `the call ran, but the audit log could not record it, so its result is withheld (${(err as Error).message})`));
  }
  return result;
}

/** The label of what a tool returned: the tool's or server's, kept trusted for the operator's trusted paths. */
function resultLabel(s: CallState): Label {
  const base = s.toolSec?.label ?? s.call.server.label;
  const trusted = s.call.server.trustedPaths;
  if (base.integrity === 'untrusted' && trusted.length > 0 && s.paths.length > 0 && s.paths.every((p) => pathMatches(trusted, p))) {
    return { ...base, integrity: 'trusted' };
  }
  return base;
}

async function askApproval(security: Security, call: ToolCall, s: CallState, refusal: Refusal): Promise<Refusal | undefined> {
  if (!security.approver) return { ...refusal, reason: `needs approval: ${refusal.reason}` };
  try {
    const decision = await security.approver({
      principal: call.principal!,
      sessionId: call.holder.id,
      transport: call.transport,
      tool: call.name,
      arguments: s.args,
      definition: call.tool,
      refusal,
      label: security.labels.of(call.holder),
      keepAlive: call.keepAlive,
      askClient: call.askClient,
    });
    return decision.granted ? undefined : { ...refusal, outcome: 'deny', reason: `approval denied${decision.reason ? `: ${decision.reason}` : ''}` };
  } catch (err) {
    return { ...refusal, outcome: 'deny', reason: `approval failed: ${(err as Error).message}` };
  }
}

function refusalResult(r: Refusal): Params {
  const prefix = r.outcome === 'approve' ? 'sluice: this call needs approval' : `sluice refused this call at the ${r.step} step`;
  return { content: [{ type: 'text', text: `${prefix}: ${r.reason}` }], isError: true };
}

function describe(f: Finding): string {
  return `${f.category} (${f.kind})`;
}

