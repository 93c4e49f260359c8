/**
 * The security pipeline (runChecked) in process, for the test/unit/pipeline-*.test.ts files: a policy context built
 * the way bench/chokepoint.ts builds it, with an in-test Recorder that keeps every DecisionEvent, a catalog of
 * tools and a canned upstream, and the helpers that make one call and collect exactly what it recorded.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/schema.js';
import type { Label } from '../../src/ifc/label.js';
import type { Principal } from '../../src/identity/principal.js';
import { MemoryTokenStore } from '../../src/identity/tokens.js';
import { runChecked, type CheckedRequest, type Outcome } from '../../src/policy/chokepoint.js';
import type { DecisionEvent, Recorder } from '../../src/policy/decision.js';
import { Hooks } from '../../src/policy/hooks.js';
import { Security, type SecurityPorts } from '../../src/policy/security.js';
import type { Params } from '../../src/protocol/jsonrpc.js';
import { memoryState } from '../../src/state/memory-state.js';
import type { LabelHolder, StateStores } from '../../src/state/ports.js';

export const HOOKS = fileURLToPath(new URL('../fixtures/hooks/', import.meta.url));
export const THROWS = path.join(HOOKS, 'throws.js');
export const REWRITE = path.join(HOOKS, 'rewrite.js');
/** Does not exist: canonicalisation keeps it as written (its nearest existing ancestor is `/`). */
export const ALLOWED = '/srv/sluice-pipeline-test-allowed';
/** A real folder with a denied one inside, for the path-filter step (a listing must not name what it holds). */
export const LISTED = mkdtempSync(path.join(tmpdir(), 'sluice-pipeline-listed-'));
mkdirSync(path.join(LISTED, 'secret'));
writeFileSync(path.join(LISTED, 'secret', 'plan.txt'), 'the plan\n');
export const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

const CONFIG = `
agents:
  dev: { role: developer }
  reader: { role: reader }
  limited: { role: limited }
  pertool: { role: pertool }
  blocker: { role: blocker }
  nobody: { role: denyall }
  hider: { role: hider }
roles:
  developer:
    default: allow
    tools:
      "x__denied": deny
      "x__needs_ok": approve
    paths: { allow: ["${ALLOWED}/**"] }
  reader: { default: allow, readOnly: true }
  limited: { default: allow, rateLimit: { perSecond: 0.001, burst: 1 } }
  pertool:
    default: allow
    rateLimit: { perSecond: 0.001, burst: 2, tools: { "x__*": { perSecond: 0.001, burst: 1 } } }
  blocker: { default: allow, filters: { secret: block } }
  denyall: { default: deny, tools: { "*": deny } }
  hider: { default: allow, paths: { deny: ["${LISTED}/secret/**"] } }
mcpServers:
  x:
    command: node
    tools:
      trusted: { operation: read, label: { integrity: trusted } }
      send: { clearance: pii }
`;

export type Method = CheckedRequest['method'];
export type HookSpec = { module: string; stage: 'pre' | 'post' };

export const UNTRUSTED: Label = { integrity: 'untrusted', confidentiality: 'public' };
export const PII: Label = { integrity: 'trusted', confidentiality: 'pii' };

const read = { type: 'object', properties: { message: { type: 'string' } } };
/** What the caller's catalog offers (tools carry their definition); anything else does not resolve. */
export const CATALOG: Record<string, Params | undefined> = {
  x__read: { name: 'x__read', annotations: { readOnlyHint: true }, inputSchema: read },
  x__write: { name: 'x__write', inputSchema: read },
  x__denied: { name: 'x__denied', annotations: { readOnlyHint: true }, inputSchema: read },
  x__needs_ok: { name: 'x__needs_ok', annotations: { readOnlyHint: true }, inputSchema: read },
  x__trusted: { name: 'x__trusted', inputSchema: read },
  x__send: { name: 'x__send', inputSchema: read },
  x__a: { name: 'x__a', annotations: { readOnlyHint: true } },
  x__b: { name: 'x__b', annotations: { readOnlyHint: true } },
  y__c: { name: 'y__c', annotations: { readOnlyHint: true } },
  y__d: { name: 'y__d', annotations: { readOnlyHint: true } },
  'mem://notes/a': undefined,
  greet: undefined,
  'https://example.com/q?x=1': undefined,
  'http://169.254.169.254/latest/meta-data': undefined,
};

/** A canned upstream answer of the shape each method returns. */
export function resultFor(method: Method, target: string, text: string): Params {
  if (method === 'resources/read') return { contents: [{ uri: target, mimeType: 'text/plain', text }] };
  if (method === 'completion/complete') return { completion: { values: [text] } };
  if (method === 'resources/subscribe') return {};
  if (method === 'prompts/get') return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  return { content: [{ type: 'text', text }] };
}

export const holderOf = (agent: string): LabelHolder => ({ id: `session-${agent}`, agent, stateless: false });
export const principalOf = (agent: string, config: GatewayConfig): Principal => ({ agent, role: config.security.agents[agent]?.role, via: 'token' });

/** Lets anything the pipeline left running (a record it did not await) land before the events are counted. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface CallSpec {
  method?: Method;
  /** A declared agent (its principal is built from config); or `principal` for anything else. */
  agent?: string;
  principal?: Principal | null;
  target: string;
  args?: Params;
  text?: string;
  execute?: CheckedRequest['execute'];
  resolve?: CheckedRequest['resolve'];
}

export interface SetupOptions {
  hooks?: HookSpec[];
  /** Ports to swap in (a failing store), built from the real in-memory state. */
  ports?: (state: StateStores) => Partial<SecurityPorts>;
  /** Which events the recorder rejects (after keeping them), and whether it is accepting. */
  rejects?: (e: DecisionEvent) => boolean;
  accepting?: () => boolean;
}

export async function setup(opts: SetupOptions = {}) {
  const hookLines = (opts.hooks ?? []).map((h) => `  - { module: ${JSON.stringify(h.module)}, stage: ${h.stage} }`).join('\n');
  const config = parseConfig(CONFIG + (hookLines ? `hooks:\n${hookLines}\n` : ''), 'test.yaml', {});
  const state = memoryState();
  const hookErrors: string[] = [];
  const hooks = new Hooks(config.security.hooks, (_hook, error) => void hookErrors.push(error));
  if (!hooks.empty) await hooks.load();
  const events: DecisionEvent[] = [];
  const droppable: boolean[] = [];
  const recorder: Recorder = {
    record: async (e, o) => {
      events.push(e);
      droppable.push(o?.droppable ?? false);
      if (opts.rejects?.(e)) throw new Error('audit disk full');
      return events.length;
    },
    accepting: opts.accepting ?? (() => true),
  };
  const security = new Security(config, { ...state, tokens: new MemoryTokenStore(), hooks, recorder, ...opts.ports?.(state) });
  const server = config.servers[0];
  const executed: { target: string; args: Params }[] = [];

  const call = (spec: CallSpec): Promise<Outcome> => {
    const method = spec.method ?? 'tools/call';
    const principal = spec.principal === null ? undefined : (spec.principal ?? principalOf(spec.agent ?? 'dev', config));
    return runChecked({
      method,
      security,
      principal,
      holder: holderOf(principal?.agent ?? 'nobody-at-all'),
      transport: 'http',
      target: spec.target,
      arguments: spec.args ?? { message: 'hi' },
      traceId: 'trace-1',
      resolve:
        spec.resolve ??
        (() => (Object.hasOwn(CATALOG, spec.target) ? { server, upstreamName: method === 'tools/call' ? spec.target.replace(/^[xy]__/, '') : spec.target, definition: CATALOG[spec.target] } : undefined)),
      execute:
        spec.execute ??
        (async (_resolved, args) => {
          executed.push({ target: spec.target, args });
          return resultFor(method, spec.target, spec.text ?? 'all good');
        }),
    });
  };
  return { config, state, security, events, droppable, executed, hookErrors, call };
}

export type Ctx = Awaited<ReturnType<typeof setup>>;

/** The events one call left (exactly one is expected), after anything unawaited has landed. */
export async function eventsOf(ctx: Ctx, run: () => Promise<Outcome>): Promise<{ outcome: Outcome; events: DecisionEvent[]; droppable: boolean[]; executed: number }> {
  const mark = ctx.events.length;
  const ran = ctx.executed.length;
  const outcome = await run();
  await flush();
  return { outcome, events: ctx.events.slice(mark), droppable: ctx.droppable.slice(mark), executed: ctx.executed.length - ran };
}

/** Asserts that a call went through (one allow event), for the calls a row makes before the one it tests. */
export async function allowed(ctx: Ctx, spec: CallSpec): Promise<void> {
  const { outcome, events } = await eventsOf(ctx, () => ctx.call(spec));
  expect(outcome.ok, `${spec.target} should be allowed: ${JSON.stringify(outcome)}`).toBe(true);
  expect(events.map((e) => e.outcome)).toEqual(['allow']);
}

/** What a row may do before its call: the operator pauses sluice, or the session reads pii. */
export const pause = async (ctx: Ctx) => ctx.state.switches.set('paused', true);
export const labelPii = async (ctx: Ctx) => void (await ctx.state.labels.raise(holderOf('dev'), PII));
