import type { Label } from '../ifc/label.js';
import { lifecycle } from '../lifecycle.js';
import { SluiceError } from '../protocol/errors.js';
import { PeerError, RpcError, type Params } from '../protocol/jsonrpc.js';
import { contentFromUpstream } from './relay.js';
import type { DecisionEvent, Refusal, Step } from './decision.js';
import { printable } from './printable.js';
import { pipelineOf } from './methods.js';
import { deny, type CheckedRequest, type RequestState } from './checked-request.js';
import { describeFinding, destinationOf, pausedRefusal, STEP_FUNCTIONS } from './steps.js';

export type { CheckedRequest, Resolved } from './checked-request.js';
export { QUARANTINE_RULE } from './steps.js';

/** What came of a checked request: the result to hand out, or the refusal that stopped it. */
export type Outcome = { ok: true; result: Params } | { ok: false; refusal: Refusal };

/**
 * The only way to a tool, a resource or a prompt. Walks the request's ordered step list (step-names.ts):
 * checks that fail closed, then execute, then filters, hooks and labelling; the outcome — whatever it is — is
 * recorded exactly once, at the end. A step that throws refuses (a check that cannot decide says no).
 */
export async function runChecked(req: CheckedRequest): Promise<Outcome> {
  const started = performance.now();
  const s: RequestState = { req, operation: 'write', egress: true, args: req.arguments, paths: [], findings: [] };
  let labelBefore: Label | undefined;
  try {
    labelBefore = await req.security.labels.of(req.holder);
  } catch (err) {
    return refuse(s, started, undefined, deny('authenticate', `the label store could not answer: ${(err as Error).message}`));
  }

  const steps = pipelineOf(req.method);
  if (!steps) return refuse(s, started, labelBefore, deny('authenticate', `${req.method} is not a checked method`));
  for (const name of steps) {
    if (name === 'record') break;
    if (name === 'execute') {
      if (!req.security.recorder.accepting()) return refuse(s, started, labelBefore, deny('record', 'the audit log is not keeping up; the call was not run, try again shortly'));
      const resolved = s.resolved!;
      try {
        s.result = await req.execute(resolved, s.args, { approved: s.approved === true, destination: destinationOf(s) });
      } catch (err) {
        const shown = await shownError(s, err);
        await record(s, started, labelBefore, 'error', { step: 'execute', reason: (shown as Error).message }).catch(() => undefined);
        throw shown;
      }
      continue;
    }
    let refusal: Refusal | undefined;
    const stepStarted = req.trace && lifecycle.step.active ? performance.now() : 0;
    try {
      // Most steps decide synchronously; awaiting only the ones that return a promise saves a turn each.
      const verdict = STEP_FUNCTIONS.get(name)!(s);
      refusal = verdict instanceof Promise ? await verdict : verdict;
    } catch (err) {
      refusal = deny(name, `the ${name} check failed: ${(err as Error).message}`);
    }
    if (stepStarted) stepDone(req, name, refusal, stepStarted);
    if (refusal?.outcome === 'approve') {
      const asked = req.trace && lifecycle.step.active ? performance.now() : 0;
      refusal = await askApproval(s, refusal, labelBefore);
      if (asked) stepDone(req, 'approval', refusal, asked);
    }
    if (refusal) return refuse(s, started, labelBefore, refusal);
  }
  return allow(s, started, labelBefore);
}

/**
 * What a failed execute tells the client is partly the upstream's words — its error answer, or the text of an
 * HTTP failure — so it passes the session's filters as a result does (a block withholds it); an upstream's own
 * error answer also raises the session's label by what it saw.
 */
async function shownError(s: RequestState, err: unknown): Promise<unknown> {
  if (!(err instanceof RpcError) && !(err instanceof SluiceError)) return err;
  const fromPeer = err instanceof PeerError;
  const data = err instanceof RpcError ? err.data : undefined;
  const relay = { security: s.req.security, principal: s.req.principal, holder: s.req.holder, transport: s.req.transport, server: s.resolved!.server };
  const outcome = await contentFromUpstream(relay, data === undefined ? { message: err.message } : { message: err.message, data }, fromPeer ? ['content-filter', 'label'] : ['content-filter']);
  const message = outcome.ok ? String(outcome.value.message) : `the server's error message was withheld: ${outcome.refusal.reason}`;
  const shownData = outcome.ok ? outcome.value.data : undefined;
  if (message === err.message && shownData === data) return err;
  return err instanceof SluiceError ? new SluiceError(err.code, message, { cause: err }) : new RpcError(err.code, message, shownData);
}

/** Tells a tracer what one step found (its verdict) and what was done about it (the action). */
function stepDone(req: CheckedRequest, step: string, refusal: Refusal | undefined, startMs: number): void {
  const verdict = refusal === undefined ? 'pass' : refusal.outcome === 'approve' ? 'approve' : 'deny';
  const action = verdict === 'pass' ? 'allow' : verdict === 'approve' ? 'ask' : 'block';
  lifecycle.step.publish({ step, verdict, action, startMs, durationMs: performance.now() - startMs, trace: req.trace! });
}

/** Durable before the client sees it: a result whose record could not be committed is not handed out. */
async function allow(s: RequestState, started: number, labelBefore: Label): Promise<Outcome> {
  const role = s.role!;
  const clean = s.findings.length === 0 && !Object.values(role.filters).includes('off') && s.req.security.hooks.empty;
  try {
    await record(s, started, labelBefore, 'allow', { result: s.result, resultClean: clean, findings: s.findings.map(describeFinding) });
  } catch (err) {
    const reason = `the call ran, but the audit log could not record it, so its result is withheld (${(err as Error).message})`;
    // The allow record stays queued and lands later; this one says what the client got instead.
    void record(s, started, labelBefore, 'error', { step: 'record', reason }).catch(() => undefined);
    return { ok: false, refusal: deny('record', reason) };
  }
  return { ok: true, result: s.result! };
}

/** A refusal goes back even if it could not be recorded: refusing is the safe side. */
async function refuse(s: RequestState, started: number, labelBefore: Label | undefined, refusal: Refusal): Promise<Outcome> {
  await record(s, started, labelBefore, refusal.outcome, { step: refusal.step, rule: refusal.rule, reason: refusal.reason }, true).catch(() => undefined);
  return { ok: false, refusal };
}

async function record(s: RequestState, started: number, labelBefore: Label | undefined, outcome: DecisionEvent['outcome'], extra: Partial<DecisionEvent>, droppable = false): Promise<void> {
  const { req } = s;
  let labelAfter = s.labelAfter;
  try {
    labelAfter ??= await req.security.labels.of(req.holder);
  } catch {
    // A label store that cannot answer must not cost the record: it is written without the label after.
  }
  const event: DecisionEvent = {
    time: new Date().toISOString(),
    agent: req.principal?.agent ?? '(none)',
    session: req.holder.id,
    transport: req.transport,
    method: req.method,
    // As sent, made printable: a look-alike or invisible character shows in the record for what it is.
    target: printable(req.target),
    upstream: s.resolved?.server.name,
    outcome,
    // A resource's only argument is its URI, which is the target.
    arguments: req.method === 'resources/read' || req.method === 'resources/subscribe' ? undefined : s.args,
    argumentsClean: s.argsClean,
    labelBefore,
    labelAfter,
    durationMs: performance.now() - started,
    traceId: req.traceId,
    ...extra,
  };
  const seq = await req.security.recorder.record(event, { droppable });
  // The span names the audit record, as the record names the trace: one leads to the other.
  if (req.trace && seq !== undefined) req.trace.auditSeq = seq;
}

async function askApproval(s: RequestState, refusal: Refusal, label: Label): Promise<Refusal | undefined> {
  const { req } = s;
  const approver = req.security.approver;
  // Only the tool rule's approval carries over: a flow violation that appears on the retry is asked anew.
  if (req.approvedBefore && refusal.step === 'tool-rule') return (s.approved = true), pausedSince(req);
  if (!approver || req.method !== 'tools/call') return { ...refusal, reason: `needs approval: ${refusal.reason}` };
  try {
    const decision = await approver({
      principal: req.principal!,
      sessionId: req.holder.id,
      transport: req.transport,
      tool: req.target,
      arguments: s.args,
      definition: s.resolved?.definition,
      refusal,
      label,
      keepAlive: req.keepAlive,
      askClient: req.askClient,
    });
    if (!decision.granted) return { ...refusal, outcome: 'deny', reason: `approval denied${decision.reason ? `: ${decision.reason}` : ''}` };
    s.approved = true;
    return await pausedSince(req);
  } catch (err) {
    return { ...refusal, outcome: 'deny', reason: `approval failed: ${(err as Error).message}` };
  }
}

/** The operator may have paused sluice while a call waited for its approval: an approval does not outrank the pause. */
function pausedSince(req: CheckedRequest): Promise<Refusal | undefined> {
  return pausedRefusal(req.security.switches, 'sluice was paused while the call waited for approval; it was approved but not run');
}

/** A tool refusal as the model reads it: a result with isError, naming the step and the reason. */
export function refusalResult(r: Refusal): Params {
  const prefix = r.outcome === 'approve' ? 'sluice: this call needs approval' : `sluice refused this call at the ${r.step} step`;
  return { content: [{ type: 'text', text: `${prefix}: ${r.reason}` }], isError: true };
}

/** A resource read or prompt get refused (they have no isError): the message of its JSON-RPC error. */
export function readRefusalMessage(r: Refusal): string {
  return r.step === 'pause' ? 'sluice refused this request: sluice is paused by the operator' : `sluice refused this request at the ${r.step} step: ${r.reason}`;
}

export type { Step };
