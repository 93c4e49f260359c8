import type { ServerConfig } from '../config/schema.js';
import { scanPayload } from '../filters/scan.js';
import { join, type Label } from '../ifc/label.js';
import type { Principal } from '../identity/principal.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { LabelHolder } from '../state/ports.js';
import type { DecisionEvent, Refusal } from './decision.js';
import type { MessageStep } from './methods.js';
import { findingsLabel } from './findings.js';
import { printable } from './printable.js';
import type { Security } from './security.js';
import { deny, type Destination } from './checked-request.js';
import { writeDown } from './write-down.js';
import { describeFinding } from './steps.js';

export { OPEN_DESTINATION, type Destination } from './checked-request.js';

/**
 * What sluice relays between an upstream and one client outside a checked request: content the upstream sends
 * on its own (a log line, a progress message, a sampling or elicitation request) and the client's answer to
 * such a request. The same rules as for a call hold: content passes the session's filters and raises its
 * label; an answer is data going to the upstream, checked against the label the session has now.
 */
export interface RelayContext {
  security: Security;
  principal: Principal | undefined;
  holder: LabelHolder;
  transport: string;
  /** The upstream at the other end (its label is what its content carries). */
  server: ServerConfig;
}

export type RelayOutcome = { ok: true; value: Params } | { ok: false; refusal: Refusal };

/**
 * Content from an upstream on its way to one session: the session's role's filters (redact, label, block) and
 * (when its table row says so) the session's label raised by the server's label and what was found — before
 * the client sees it. A session
 * without a role, a filter that blocks, or a label store that cannot answer: the content is withheld.
 */
export async function contentFromUpstream(ctx: RelayContext, content: Params, steps: readonly MessageStep[]): Promise<RelayOutcome> {
  const role = ctx.security.role(ctx.principal);
  if (!role) return { ok: false, refusal: deny('authenticate', 'no identity with a role is attached to this session') };
  const scanned = scanPayload(content, role.filters);
  const blocked = scanned.findings.find((f) => role.filters[f.category] === 'block');
  if (blocked) return { ok: false, refusal: deny('content-filter', `it contained ${describeFinding(blocked)} and was withheld`, blocked.kind) };
  if (!steps.includes('label')) return { ok: true, value: scanned.value };
  const seen = join(ctx.server.label, findingsLabel(scanned.findings.filter((f) => role.filters[f.category] === 'label')));
  try {
    await ctx.security.labels.raise(ctx.holder, seen);
  } catch (err) {
    return { ok: false, refusal: deny('label', `the label store could not answer: ${(err as Error).message}`) };
  }
  return { ok: true, value: scanned.value };
}

/**
 * A client's answer to an upstream's request (a sampling result, an elicitation answer, roots) on its way to
 * that upstream: no write-down, as for a call's arguments — what the session holds now, joined with what the
 * answer itself carries, must be cleared for where it goes.
 */
export async function answerToUpstream(ctx: RelayContext, answer: Params, to: Destination): Promise<Refusal | undefined> {
  const role = ctx.security.role(ctx.principal);
  if (!role) return deny('authenticate', 'no identity with a role is attached to this session');
  if (!to.egress) return undefined;
  let held: Label;
  try {
    held = await ctx.security.labels.of(ctx.holder);
  } catch (err) {
    return deny('information-flow', `the label store could not answer: ${(err as Error).message}`);
  }
  const { refused } = writeDown(held, answer, to, `server "${ctx.server.name}"`);
  if (!refused || role.onFlowViolation === 'allow') return undefined;
  // There is nobody to ask mid-answer: a violation that would need approval is refused.
  return deny('information-flow', refused.reason, refused.rule);
}

/** The audit record of a relayed request or answer: who, which server, what, and how it ended. */
export function relayRecord(ctx: RelayContext, method: 'sampling/createMessage' | 'elicitation/create' | 'roots/list', what: string, outcome: 'allow' | 'deny', refusal?: Refusal, args?: Params): DecisionEvent {
  return {
    time: new Date().toISOString(),
    agent: ctx.principal?.agent ?? '(none)',
    session: ctx.holder.id,
    transport: ctx.transport,
    method,
    target: printable(what),
    upstream: ctx.server.name,
    outcome,
    ...(refusal ? { step: refusal.step, rule: refusal.rule, reason: refusal.reason } : {}),
    arguments: args,
    durationMs: 0,
  };
}
