import type { ServerConfig } from '../config/schema.js';
import { scanPayload } from '../filters/scan.js';
import { join, type Label } from '../ifc/label.js';
import type { LabelHolder } from '../ifc/labels.js';
import type { Principal } from '../identity/principal.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { Refusal } from './decision.js';
import { findingsLabel } from './findings.js';
import { pathMatches } from './paths.js';
import type { Security } from './security.js';

/** A resources/read or prompts/get on its way to an upstream. */
export interface ReadCall {
  security: Security;
  principal: Principal | undefined;
  holder: LabelHolder;
  transport: string;
  method: 'resources/read' | 'prompts/get';
  /** The URI or merged prompt name. */
  target: string;
  server: ServerConfig;
  execute(): Promise<Params>;
}

/**
 * The lighter checks for reading a resource or getting a prompt: identity, pause, rate limit, then the
 * content filters and labelling on what comes back, and a record. Visibility is the catalog's: only what a
 * server offers can be routed at all.
 */
export async function runRead(call: ReadCall): Promise<Params> {
  const started = performance.now();
  const { security } = call;
  const labelBefore = security.labels.of(call.holder);
  const record = (outcome: 'allow' | 'deny' | 'error', r?: Partial<Refusal>, findings?: string[], result?: Params) =>
    security.record({
      time: new Date().toISOString(),
      agent: call.principal?.agent ?? '(none)',
      session: call.holder.id,
      transport: call.transport,
      method: call.method,
      target: call.target,
      upstream: call.server.name,
      outcome,
      step: r?.step,
      rule: r?.rule,
      reason: r?.reason,
      findings,
      result,
      labelBefore,
      labelAfter: security.labels.of(call.holder),
      durationMs: performance.now() - started,
    });
  const refuse = async (r: Refusal): Promise<never> => {
    await record('deny', r).catch(() => undefined);
    throw new ReadRefused(r);
  };

  const role = security.role(call.principal);
  if (!call.principal || !role) await refuse({ outcome: 'deny', step: 'authenticate', reason: 'no identity with a role is attached to this session' });
  if (security.paused) await refuse({ outcome: 'deny', step: 'pause', reason: 'sluice is paused by the operator' });
  if (role!.rateLimit) {
    const taken = security.limiter.take(`agent:${call.principal!.agent}`, role!.rateLimit);
    if (!taken.ok) await refuse({ outcome: 'deny', step: 'rate-limit', reason: `rate limit exceeded; retry in ${(taken.retryAfterMs / 1000).toFixed(1)} s`, rule: `${role!.rateLimit.perSecond}/s` });
  }

  let result: Params;
  try {
    result = await call.execute();
  } catch (err) {
    await record('error', { step: 'execute', reason: (err as Error).message }).catch(() => undefined);
    throw err;
  }
  const filtered = scanPayload(result, role!.filters);
  const blocked = filtered.findings.find((f) => role!.filters[f.category] === 'block');
  if (blocked) await refuse({ outcome: 'deny', step: 'content-filter', rule: blocked.kind, reason: `the content contained ${blocked.category} (${blocked.kind}) and was withheld` });
  const seen = join(sourceLabel(call), findingsLabel(filtered.findings.filter((f) => role!.filters[f.category] === 'label')));
  security.labels.raise(call.holder, seen);
  await record('allow', undefined, filtered.findings.map((f) => `${f.category} (${f.kind})`), filtered.value);
  return filtered.value;
}

/** A resource's label from config (first matching URI glob), else its server's. */
function sourceLabel(call: ReadCall): Label {
  if (call.method === 'resources/read') {
    for (const [glob, label] of call.server.resources) if (pathMatches([glob], call.target)) return label;
  }
  return call.server.label;
}

/** A refusal of a read: the handler turns it into a JSON-RPC error (resources and prompts have no isError). */
export class ReadRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`sluice refused this ${refusal.step === 'pause' ? 'request: sluice is paused by the operator' : `request at the ${refusal.step} step: ${refusal.reason}`}`);
  }
}
