/**
 * The security pipeline (runChecked) in process, step by step: for every step that can refuse, a request it
 * refuses — and for each, the Outcome handed back and exactly what was recorded. The policy context is built
 * the way bench/chokepoint.ts builds it, with an in-test Recorder that keeps every DecisionEvent.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordOf } from '../../src/audit/from-decision.js';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfig, ServerConfig } from '../../src/config/schema.js';
import { BOTTOM, type Label } from '../../src/ifc/label.js';
import type { Principal } from '../../src/identity/principal.js';
import { MemoryTokenStore } from '../../src/identity/tokens.js';
import { runChecked, type CheckedRequest, type Outcome } from '../../src/policy/chokepoint.js';
import type { DecisionEvent, Recorder, Step } from '../../src/policy/decision.js';
import { Hooks } from '../../src/policy/hooks.js';
import { Security, type SecurityPorts } from '../../src/policy/security.js';
import { PROMPT_STEPS, READ_STEPS, TOOL_STEPS } from '../../src/policy/step-names.js';
import type { Params } from '../../src/protocol/jsonrpc.js';
import { memoryState } from '../../src/state/memory-state.js';
import type { LabelHolder, LabelStore, StateStores } from '../../src/state/ports.js';

const HOOKS = fileURLToPath(new URL('../fixtures/hooks/', import.meta.url));
const THROWS = path.join(HOOKS, 'throws.js');
const REWRITE = path.join(HOOKS, 'rewrite.js');
/** Does not exist: canonicalisation keeps it as written (its nearest existing ancestor is `/`). */
const ALLOWED = '/srv/sluice-pipeline-test-allowed';
/** A real folder with a denied one inside, for the path-filter step (a listing must not name what it holds). */
const LISTED = mkdtempSync(path.join(tmpdir(), 'sluice-pipeline-listed-'));
mkdirSync(path.join(LISTED, 'secret'));
writeFileSync(path.join(LISTED, 'secret', 'plan.txt'), 'the plan\n');
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

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

type Method = CheckedRequest['method'];
type HookSpec = { module: string; stage: 'pre' | 'post' };

const UNTRUSTED: Label = { integrity: 'untrusted', confidentiality: 'public' };
const PII: Label = { integrity: 'trusted', confidentiality: 'pii' };

const read = { type: 'object', properties: { message: { type: 'string' } } };
/** What the caller's catalog offers (tools carry their definition); anything else does not resolve. */
const CATALOG: Record<string, Params | undefined> = {
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
function resultFor(method: Method, target: string, text: string): Params {
  if (method === 'resources/read') return { contents: [{ uri: target, mimeType: 'text/plain', text }] };
  if (method === 'completion/complete') return { completion: { values: [text] } };
  if (method === 'resources/subscribe') return {};
  if (method === 'prompts/get') return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  return { content: [{ type: 'text', text }] };
}

const holderOf = (agent: string): LabelHolder => ({ id: `session-${agent}`, agent, stateless: false });
const principalOf = (agent: string, config: GatewayConfig): Principal => ({ agent, role: config.security.agents[agent]?.role, via: 'token' });

/** Lets anything the pipeline left running (a record it did not await) land before the events are counted. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

interface CallSpec {
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

interface SetupOptions {
  hooks?: HookSpec[];
  /** Ports to swap in (a failing store), built from the real in-memory state. */
  ports?: (state: StateStores) => Partial<SecurityPorts>;
  /** Which events the recorder rejects (after keeping them), and whether it is accepting. */
  rejects?: (e: DecisionEvent) => boolean;
  accepting?: () => boolean;
}

async function setup(opts: SetupOptions = {}) {
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
  const server = config.servers[0] as ServerConfig;
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

type Ctx = Awaited<ReturnType<typeof setup>>;

/** The events one call left (exactly one is expected), after anything unawaited has landed. */
async function eventsOf(ctx: Ctx, run: () => Promise<Outcome>): Promise<{ outcome: Outcome; events: DecisionEvent[]; droppable: boolean[]; executed: number }> {
  const mark = ctx.events.length;
  const ran = ctx.executed.length;
  const outcome = await run();
  await flush();
  return { outcome, events: ctx.events.slice(mark), droppable: ctx.droppable.slice(mark), executed: ctx.executed.length - ran };
}

/** Asserts that a call went through (one allow event), for the calls a row makes before the one it tests. */
async function allowed(ctx: Ctx, spec: CallSpec): Promise<void> {
  const { outcome, events } = await eventsOf(ctx, () => ctx.call(spec));
  expect(outcome.ok, `${spec.target} should be allowed: ${JSON.stringify(outcome)}`).toBe(true);
  expect(events.map((e) => e.outcome)).toEqual(['allow']);
}

// ---- refusals, one step at a time ----------------------------------------------------------------------

interface RefusalRow {
  name: string;
  call: CallSpec;
  hooks?: HookSpec[];
  /** What happens first: the operator pauses, the session reads pii, earlier calls use up a bucket. */
  before?: (ctx: Ctx) => Promise<void>;
  step: Step;
  outcome?: 'deny' | 'approve';
  reason: string | RegExp;
  rule?: string;
  /** The target as the record must show it (printable), when it is not the target as sent. */
  recordedTarget?: string;
  /** Whether the upstream was called before the refusal. */
  executes?: boolean;
}

const pause = async (ctx: Ctx) => ctx.state.switches.set('paused', true);
const labelPii = async (ctx: Ctx) => void (await ctx.state.labels.raise(holderOf('dev'), PII));

const REFUSALS: RefusalRow[] = [
  { name: 'authenticate: no principal', call: { principal: null, target: 'x__read' }, step: 'authenticate', reason: 'no identity with a role is attached to this session' },
  {
    name: 'authenticate: a principal whose role is not declared',
    call: { principal: { agent: 'dev', role: 'ghost', via: 'token' }, target: 'x__read' },
    step: 'authenticate',
    reason: 'no identity with a role is attached to this session',
  },
  {
    name: 'authenticate: a principal with no role at all (the operator)',
    call: { principal: { agent: 'admin:operator', via: 'token' }, target: 'x__read' },
    step: 'authenticate',
    reason: 'no identity with a role is attached to this session',
  },
  {
    name: 'authenticate: a role named after an Object.prototype key',
    call: { principal: { agent: 'dev', role: 'constructor', via: 'token' }, target: 'x__read' },
    step: 'authenticate',
    reason: 'no identity with a role is attached to this session',
  },
  { name: 'pause', call: { target: 'x__read' }, before: pause, step: 'pause', reason: 'sluice is paused by the operator' },
  {
    name: 'rate-limit: the second call of a role with burst 1',
    call: { agent: 'limited', target: 'x__read' },
    before: (ctx) => allowed(ctx, { agent: 'limited', target: 'x__read' }),
    step: 'rate-limit',
    reason: /^rate limit exceeded; retry in \d+\.\d s$/,
    rule: '0.001/s',
  },
  { name: 'resolve: an unknown name', call: { target: 'x__ghost' }, step: 'resolve', reason: 'no tool "x__ghost" is offered' },
  {
    name: 'resolve: a name with U+202E is recorded printable',
    call: { target: 'x__re\u202Ead' },
    step: 'resolve',
    reason: 'no tool "x__re\\u{202e}ad" is offered',
    recordedTarget: 'x__re\\u{202e}ad',
  },
  {
    name: 'resolve: a name with U+200B is recorded printable',
    call: { target: 'x__read\u200B' },
    step: 'resolve',
    reason: 'no tool "x__read\\u{200b}" is offered',
    recordedTarget: 'x__read\\u{200b}',
  },
  {
    name: 'resolve: a name with a newline cannot forge a record line',
    call: { target: 'x__read\nallow x__write' },
    step: 'resolve',
    reason: 'no tool "x__read\\u{a}allow x__write" is offered',
    recordedTarget: 'x__read\\u{a}allow x__write',
  },
  {
    name: 'resolve: a huge plain-ASCII name is cut in the record',
    call: { target: `x__${'a'.repeat(297)}` },
    step: 'resolve',
    reason: `no tool "x__${'a'.repeat(253)}… (300 characters)" is offered`,
    recordedTarget: `x__${'a'.repeat(253)}… (300 characters)`,
  },
  { name: 'tool-rule: deny', call: { target: 'x__denied' }, step: 'tool-rule', reason: 'role "developer" may not call x__denied', rule: 'x__denied' },
  { name: 'tool-rule: deny by the default of a deny-all role', call: { agent: 'nobody', target: 'x__read' }, step: 'tool-rule', reason: 'role "denyall" may not call x__read', rule: '*' },
  {
    name: 'tool-rule: approve with no approver',
    call: { target: 'x__needs_ok' },
    step: 'tool-rule',
    outcome: 'approve',
    reason: "needs approval: calls to x__needs_ok need a human's approval",
    rule: 'x__needs_ok',
  },
  { name: 'operation: a read-only role and a tool without readOnlyHint', call: { agent: 'reader', target: 'x__write' }, step: 'operation', reason: 'role "reader" is read-only and x__write is a write tool' },
  {
    name: 'paths: a path outside the allow list',
    call: { target: 'x__write', args: { path: '/etc/passwd' } },
    step: 'paths',
    reason: 'path /etc/passwd is outside the allowed paths',
    rule: `${ALLOWED}/**`,
  },
  {
    name: 'paths: a path that climbs out of the allow list with ..',
    call: { target: 'x__write', args: { path: `${ALLOWED}/../../etc/passwd` } },
    step: 'paths',
    reason: 'path /etc/passwd is outside the allowed paths',
    rule: `${ALLOWED}/**`,
  },
  {
    name: 'paths: a write to a folder above a denied one (a move would carry it out of the rule)',
    call: { agent: 'hider', target: 'x__write', args: { path: LISTED } },
    step: 'paths',
    reason: `${LISTED} is a folder that holds or could hold denied paths: a write to it (a move, rename, copy or delete) would carry them out of the rule's reach`,
    rule: `${LISTED}/secret/**`,
  },
  {
    name: 'path-filter: a listing that names a denied entry where it cannot be taken out',
    call: { agent: 'hider', target: 'x__read', args: { path: LISTED }, text: 'found it: plan.txt!' },
    step: 'path-filter',
    reason: `the result names a denied path below ${LISTED} in a form sluice could not take out, so it was withheld`,
    executes: true,
  },
  {
    name: 'urls: a cloud-metadata address spelt in decimal',
    call: { target: 'x__write', args: { url: 'http://2852039166/latest/meta-data/' } },
    step: 'urls',
    reason: 'URL http://169.254.169.254/latest/meta-data/ at url points at a cloud metadata host (169.254.169.254), refused unless an allow entry names its exact host or address',
  },
  {
    name: 'information-flow: a pii session and a write tool cleared for public',
    call: { target: 'x__write' },
    before: labelPii,
    step: 'information-flow',
    reason: 'the session holds pii data and x__write is cleared for public only',
    rule: 'clearance public',
  },
  {
    name: 'information-flow: a secret carried in the arguments of a write',
    call: { target: 'x__write', args: { message: `use ${AWS_KEY}` } },
    step: 'information-flow',
    reason: 'the session holds secret data and x__write is cleared for public only',
    rule: 'clearance public',
  },
  { name: 'pre-hook: a hook that throws blocks', hooks: [{ module: THROWS, stage: 'pre' }], call: { target: 'x__write' }, step: 'pre-hook', reason: 'a pre-hook failed', rule: `pre-hook ${THROWS}` },
  {
    name: 'content-filter: secret: block and an AWS key in the result',
    call: { agent: 'blocker', target: 'x__read', text: `here: ${AWS_KEY}` },
    step: 'content-filter',
    reason: 'the result contained secret (aws-access-key-id) and was withheld',
    rule: 'aws-access-key-id',
    executes: true,
  },
  {
    name: 'post-hook: a hook that throws withholds the result',
    hooks: [{ module: THROWS, stage: 'post' }],
    call: { target: 'x__read' },
    step: 'post-hook',
    reason: 'a post-hook failed',
    rule: `post-hook ${THROWS}`,
    executes: true,
  },
  // The order: the earliest step that refuses is the one that answers.
  { name: 'order: paused and denied by a tool rule → pause', call: { target: 'x__denied' }, before: pause, step: 'pause', reason: 'sluice is paused by the operator' },
  { name: 'order: paused and an unknown name → pause (resolve comes later)', call: { target: 'x__ghost' }, before: pause, step: 'pause', reason: 'sluice is paused by the operator' },
  { name: 'order: paused and no principal → authenticate', call: { principal: null, target: 'x__read' }, before: pause, step: 'authenticate', reason: 'no identity with a role is attached to this session' },
  {
    name: 'order: out of tokens and an unknown name → rate-limit (resolve comes later)',
    call: { agent: 'limited', target: 'x__ghost' },
    before: (ctx) => allowed(ctx, { agent: 'limited', target: 'x__read' }),
    step: 'rate-limit',
    reason: /^rate limit exceeded; retry in \d+\.\d s$/,
    rule: '0.001/s',
  },
  {
    name: 'order: denied by a tool rule and a path outside the allow list → tool-rule',
    call: { target: 'x__denied', args: { path: '/etc/passwd' } },
    step: 'tool-rule',
    reason: 'role "developer" may not call x__denied',
    rule: 'x__denied',
  },
  {
    name: 'order: a pii session and a throwing pre-hook → information-flow (the hook never sees it)',
    hooks: [{ module: THROWS, stage: 'pre' }],
    call: { target: 'x__write' },
    before: labelPii,
    step: 'information-flow',
    reason: 'the session holds pii data and x__write is cleared for public only',
    rule: 'clearance public',
  },
];

describe('runChecked: each refusing step of tools/call', () => {
  it.each(REFUSALS)('$name', async (row) => {
    const ctx = await setup({ hooks: row.hooks });
    await row.before?.(ctx);
    const principal = row.call.principal === null ? undefined : (row.call.principal ?? principalOf(row.call.agent ?? 'dev', ctx.config));
    const holder = holderOf(principal?.agent ?? 'nobody-at-all');
    const labelBefore = await ctx.state.labels.of(holder);

    const { outcome, events, droppable, executed } = await eventsOf(ctx, () => ctx.call(row.call));

    expect(outcome).toEqual({ ok: false, refusal: { outcome: row.outcome ?? 'deny', step: row.step, reason: typeof row.reason === 'string' ? row.reason : expect.stringMatching(row.reason), rule: row.rule } });
    expect(executed).toBe(row.executes ? 1 : 0);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      method: 'tools/call',
      target: row.recordedTarget ?? row.call.target,
      outcome: row.outcome ?? 'deny',
      step: row.step,
      reason: (outcome as { refusal: { reason: string } }).refusal.reason,
      agent: principal?.agent ?? '(none)',
      session: holder.id,
      transport: 'http',
      traceId: 'trace-1',
      labelBefore,
      labelAfter: labelBefore,
    });
    expect(event.rule).toBe(row.rule);
    // Nothing of a refused result is kept or handed out, and a refused call does not raise the label.
    expect(event.result).toBeUndefined();
    expect(JSON.stringify(outcome)).not.toContain(AWS_KEY);
    expect(await ctx.state.labels.of(holder)).toEqual(labelBefore);
    expect(droppable).toEqual([true]);
    if (row.recordedTarget) expect(event.target).not.toMatch(/[\u200B\u202E\n]/);
    if (row.hooks) {
      // The hook's error stays in the gateway's log: the client and the record see no internals.
      const detail = ctx.hookErrors.join(' ');
      if (row.step.endsWith('-hook')) expect(detail).toContain('hunter2');
      expect(JSON.stringify([outcome, event])).not.toContain('hunter2');
    }
  });

  it('a call refused by its per-tool bucket does not take from the overall bucket', async () => {
    const ctx = await setup();
    // Overall burst 2, "x__*" burst 1 — neither refills within the test.
    await allowed(ctx, { agent: 'pertool', target: 'x__a' });
    const second = await eventsOf(ctx, () => ctx.call({ agent: 'pertool', target: 'x__b' }));
    expect(second.outcome).toEqual({ ok: false, refusal: { outcome: 'deny', step: 'rate-limit', rule: 'x__*', reason: expect.stringMatching(/^rate limit for x__\* exceeded; retry in \d+\.\d s$/) } });
    expect(second.events).toMatchObject([{ outcome: 'deny', step: 'rate-limit', rule: 'x__*', target: 'x__b' }]);
    expect(second.executed).toBe(0);
    // Had the refused call cost a token from the overall bucket, this one would be refused.
    await allowed(ctx, { agent: 'pertool', target: 'y__c' });
    // ...and the overall bucket really holds two: the third call that gets through to it is refused by it.
    const fourth = await eventsOf(ctx, () => ctx.call({ agent: 'pertool', target: 'y__d' }));
    expect(fourth.outcome).toEqual({ ok: false, refusal: { outcome: 'deny', step: 'rate-limit', rule: '0.001/s', reason: expect.stringMatching(/^rate limit exceeded; retry/) } });
    expect(fourth.events).toMatchObject([{ outcome: 'deny', step: 'rate-limit', rule: '0.001/s', target: 'y__d' }]);
    expect(ctx.events.map((e) => `${e.target}:${e.outcome}`)).toEqual(['x__a:allow', 'x__b:deny', 'y__c:allow', 'y__d:deny']);
  });

  it('a call refused at pause takes no token (pause comes before the rate limit)', async () => {
    const ctx = await setup();
    await ctx.state.switches.set('paused', true);
    const paused = await eventsOf(ctx, () => ctx.call({ agent: 'limited', target: 'x__read' }));
    expect(paused.outcome).toMatchObject({ ok: false, refusal: { step: 'pause' } });
    expect(paused.events).toMatchObject([{ outcome: 'deny', step: 'pause' }]);
    await ctx.state.switches.set('paused', false);
    await allowed(ctx, { agent: 'limited', target: 'x__read' });
    const again = await eventsOf(ctx, () => ctx.call({ agent: 'limited', target: 'x__read' }));
    expect(again.outcome).toMatchObject({ ok: false, refusal: { step: 'rate-limit' } });
  });
});

// ---- a check that cannot decide says no ----------------------------------------------------------------

/** The in-memory label store with some methods replaced (class methods do not survive a spread). */
function labelsWith(state: StateStores, over: Partial<LabelStore>): LabelStore {
  const l = state.labels;
  return {
    of: (h) => l.of(h),
    raise: (h, seen) => l.raise(h, seen),
    forget: (id) => l.forget(id),
    reset: (t, s) => l.reset(t, s),
    identities: () => l.identities(),
    ...over,
  };
}

interface ThrowRow {
  name: string;
  ports?: (state: StateStores) => Partial<SecurityPorts>;
  call: CallSpec;
  step: Step;
  reason: string;
  executes?: boolean;
}

const THROWING: ThrowRow[] = [
  {
    name: 'a label store whose of() rejects → authenticate',
    ports: (state) => ({ labels: labelsWith(state, { of: async () => Promise.reject(new Error('labels down')) }) }),
    call: { target: 'x__read' },
    step: 'authenticate',
    reason: 'the label store could not answer: labels down',
  },
  // The port says async, but a store that throws before returning its promise must still leave a record:
  // the refusal comes back, and it must be recorded like every other outcome.
  {
    name: 'a label store whose of() throws synchronously → authenticate',
    ports: (state) => ({
      labels: labelsWith(state, {
        of: () => {
          throw new Error('labels down');
        },
      }),
    }),
    call: { target: 'x__read' },
    step: 'authenticate',
    reason: 'the label store could not answer: labels down',
  },
  {
    name: 'a label store whose of() fails once the request is under way → information-flow',
    ports: (state) => {
      let calls = 0;
      return { labels: labelsWith(state, { of: async (h) => (++calls === 1 ? state.labels.of(h) : Promise.reject(new Error('labels down'))) }) };
    },
    call: { target: 'x__write' },
    step: 'information-flow',
    reason: 'the information-flow check failed: labels down',
  },
  {
    name: 'a switch store whose get() rejects → pause (fail closed)',
    ports: (state) => ({
      switches: { get: async () => Promise.reject(new Error('switches down')), set: (n, v) => state.switches.set(n, v), watch: (l) => state.switches.watch(l) },
    }),
    call: { target: 'x__read' },
    step: 'pause',
    reason: 'the pause check failed: switches down',
  },
  {
    name: 'a rate-limit store whose take() rejects → rate-limit',
    ports: () => ({ limits: { take: async () => Promise.reject(new Error('limits down')) } }),
    call: { agent: 'limited', target: 'x__read' },
    step: 'rate-limit',
    reason: 'the rate-limit check failed: limits down',
  },
  {
    name: 'a catalog whose lookup throws → resolve',
    call: {
      target: 'x__read',
      resolve: () => {
        throw new Error('catalog down');
      },
    },
    step: 'resolve',
    reason: 'the resolve check failed: catalog down',
  },
  {
    name: 'a label store whose raise() rejects after execute → label (the result is withheld)',
    ports: (state) => ({ labels: labelsWith(state, { raise: async () => Promise.reject(new Error('labels down')) }) }),
    call: { target: 'x__read', text: 'the result' },
    step: 'label',
    reason: 'the label check failed: labels down',
    executes: true,
  },
];

describe('runChecked: a step that throws refuses with its own name', () => {
  it.each(THROWING)('$name', async (row) => {
    const ctx = await setup({ ports: row.ports });
    const { outcome, events, executed } = await eventsOf(ctx, () => ctx.call(row.call));
    expect(outcome).toEqual({ ok: false, refusal: { outcome: 'deny', step: row.step, reason: row.reason, rule: undefined } });
    expect(executed).toBe(row.executes ? 1 : 0);
    expect(JSON.stringify(outcome)).not.toContain('the result');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method: 'tools/call', target: row.call.target, outcome: 'deny', step: row.step, reason: row.reason });
    expect(events[0].result).toBeUndefined();
  });

  it('an execute that throws: one error event at execute, and the error propagates', async () => {
    const ctx = await setup();
    const boom = new Error('upstream exploded');
    let calls = 0;
    const mark = ctx.events.length;
    await expect(
      ctx.call({
        target: 'x__read',
        execute: async () => {
          calls++;
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    await flush();
    expect(calls).toBe(1);
    const events = ctx.events.slice(mark);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method: 'tools/call', target: 'x__read', outcome: 'error', step: 'execute', reason: 'upstream exploded', upstream: 'x', agent: 'dev' });
    expect(events[0].result).toBeUndefined();
    // A failed call is not dropped from the record under load.
    expect(ctx.droppable.slice(mark)).toEqual([false]);
  });
});

// ---- allowed calls -------------------------------------------------------------------------------------

interface AllowRow {
  name: string;
  call: CallSpec;
  hooks?: HookSpec[];
  before?: (ctx: Ctx) => Promise<void>;
  /** What the client gets, when it is not the upstream's answer unchanged. */
  result?: (sent: Params) => Params;
  /** What the upstream received, when not the arguments as sent. */
  upstreamArgs?: Params;
  labelBefore?: Label;
  labelAfter: Label;
  findings?: string[];
  clean: boolean;
}

const ALLOWS: AllowRow[] = [
  { name: 'a read tool from a server with the default label: the session becomes untrusted', call: { target: 'x__read' }, labelAfter: UNTRUSTED, clean: true },
  { name: 'a read tool for a read-only role', call: { agent: 'reader', target: 'x__read' }, labelAfter: UNTRUSTED, clean: true },
  { name: 'a write tool for a role that is not read-only', call: { target: 'x__write' }, labelAfter: UNTRUSTED, clean: true },
  { name: 'a tool whose config label is trusted leaves the session trusted', call: { target: 'x__trusted' }, labelAfter: BOTTOM, clean: true },
  {
    name: 'a path inside the allow list',
    call: { target: 'x__write', args: { path: `${ALLOWED}/notes.txt` } },
    upstreamArgs: { path: `${ALLOWED}/notes.txt` },
    labelAfter: UNTRUSTED,
    clean: true,
  },
  {
    name: 'a path argument is handed on canonical',
    call: { target: 'x__write', args: { path: `${ALLOWED}/sub/../notes.txt` } },
    upstreamArgs: { path: `${ALLOWED}/notes.txt` },
    labelAfter: UNTRUSTED,
    clean: true,
  },
  {
    name: 'a pii session may write to a tool cleared for pii',
    call: { target: 'x__send' },
    before: labelPii,
    labelBefore: PII,
    labelAfter: { integrity: 'untrusted', confidentiality: 'pii' },
    clean: true,
  },
  {
    name: 'pii in the result (filter: label) raises the confidentiality',
    call: { target: 'x__read', text: 'write to alice@example.com' },
    labelAfter: { integrity: 'untrusted', confidentiality: 'pii' },
    findings: ['pii (email)'],
    clean: false,
  },
  {
    name: 'a secret in the result (filter: redact) is redacted, not labelled',
    call: { target: 'x__read', text: `key ${AWS_KEY}` },
    result: () => resultFor('tools/call', 'x__read', 'key [REDACTED:aws-access-key-id]'),
    labelAfter: UNTRUSTED,
    findings: ['secret (aws-access-key-id)'],
    clean: false,
  },
  {
    name: 'a pre-hook that rewrites the arguments: the upstream and the record see the rewrite',
    hooks: [{ module: REWRITE, stage: 'pre' }],
    call: { target: 'x__write', args: { message: 'hi' } },
    upstreamArgs: { message: '[hooked] hi' },
    labelAfter: UNTRUSTED,
    clean: false,
  },
];

describe('runChecked: allowed calls', () => {
  it.each(ALLOWS)('$name', async (row) => {
    const ctx = await setup({ hooks: row.hooks });
    await row.before?.(ctx);
    const agent = row.call.agent ?? 'dev';
    const holder = holderOf(agent);
    const sent = resultFor('tools/call', row.call.target, row.call.text ?? 'all good');
    const expected = row.result?.(sent) ?? sent;
    const args = row.upstreamArgs ?? row.call.args ?? { message: 'hi' };

    const { outcome, events, droppable, executed } = await eventsOf(ctx, () => ctx.call(row.call));

    expect(outcome).toEqual({ ok: true, result: expected });
    expect(executed).toBe(1);
    expect(ctx.executed.at(-1)).toEqual({ target: row.call.target, args });
    expect(await ctx.state.labels.of(holder)).toEqual(row.labelAfter);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      method: 'tools/call',
      target: row.call.target,
      outcome: 'allow',
      agent,
      session: holder.id,
      upstream: 'x',
      arguments: args,
      result: expected,
      resultClean: row.clean,
      findings: row.findings ?? [],
      labelBefore: row.labelBefore ?? BOTTOM,
      labelAfter: row.labelAfter,
    });
    expect(events[0].step).toBeUndefined();
    expect(droppable).toEqual([false]);
  });
});

// ---- the recorder --------------------------------------------------------------------------------------

describe('runChecked: the record', () => {
  it('a recorder that rejects the allow event: refused at record, and the result is withheld', async () => {
    const ctx = await setup({ rejects: (e) => e.outcome === 'allow' });
    const { outcome, events, executed } = await eventsOf(ctx, () => ctx.call({ target: 'x__read', text: 'the precious result' }));
    expect(executed).toBe(1);
    expect(outcome).toEqual({ ok: false, refusal: { outcome: 'deny', step: 'record', reason: expect.stringMatching(/result is withheld/), rule: undefined } });
    expect(JSON.stringify(outcome)).not.toContain('the precious result');
    expect((outcome as { refusal: { reason: string } }).refusal.reason).toContain('audit disk full');
    // The allow that could not be committed, then what the client got instead.
    expect(events).toMatchObject([
      { outcome: 'allow', target: 'x__read' },
      { outcome: 'error', step: 'record', target: 'x__read', reason: expect.stringMatching(/result is withheld/) },
    ]);
    expect(events[1].result).toBeUndefined();
  });

  it('a recorder that rejects a refusal: the refusal still goes back', async () => {
    const ctx = await setup({ rejects: () => true });
    const { outcome, events } = await eventsOf(ctx, () => ctx.call({ target: 'x__denied' }));
    expect(outcome).toMatchObject({ ok: false, refusal: { step: 'tool-rule', outcome: 'deny' } });
    expect(events).toMatchObject([{ outcome: 'deny', step: 'tool-rule' }]);
  });

  it.each<{ method: Method; target: string }>([
    { method: 'tools/call', target: 'x__read' },
    { method: 'resources/read', target: 'mem://notes/a' },
    { method: 'prompts/get', target: 'greet' },
  ])('a recorder that is not accepting: $method is refused at record before it runs', async ({ method, target }) => {
    const ctx = await setup({ accepting: () => false });
    const { outcome, events, droppable, executed } = await eventsOf(ctx, () => ctx.call({ method, target }));
    expect(executed).toBe(0);
    expect(outcome).toEqual({ ok: false, refusal: { outcome: 'deny', step: 'record', reason: 'the audit log is not keeping up; the call was not run, try again shortly', rule: undefined } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method, target, outcome: 'deny', step: 'record', upstream: 'x' });
    expect(droppable).toEqual([true]);
  });

  it('a recorder that is not accepting does not hide an earlier refusal', async () => {
    const ctx = await setup({ accepting: () => false });
    const { outcome, events } = await eventsOf(ctx, () => ctx.call({ target: 'x__denied' }));
    expect(outcome).toMatchObject({ ok: false, refusal: { step: 'tool-rule' } });
    expect(events).toMatchObject([{ outcome: 'deny', step: 'tool-rule' }]);
  });
});

// ---- resources/read and prompts/get --------------------------------------------------------------------

interface ReadRow {
  name: string;
  method: Exclude<Method, 'tools/call'>;
  call: CallSpec;
  hooks?: HookSpec[];
  before?: (ctx: Ctx) => Promise<void>;
  /** Unset: allowed. */
  refused?: { step: Step; reason: string | RegExp; rule?: string };
  executes?: boolean;
}

const READS: ReadRow[] = [
  ...(['resources/read', 'prompts/get'] as const).flatMap((method): ReadRow[] => [
    { name: `${method}: a tool-rule deny for the same name does not apply`, method, call: { target: 'x__denied' } },
    { name: `${method}: a role that denies every tool still reads`, method, call: { agent: 'nobody', target: method === 'prompts/get' ? 'greet' : 'mem://notes/a' } },
    { name: `${method}: a read-only role reads`, method, call: { agent: 'reader', target: 'x__read' } },
    {
      name: `${method}: no pre-hook or post-hook runs (both would throw)`,
      method,
      hooks: [
        { module: THROWS, stage: 'pre' },
        { module: THROWS, stage: 'post' },
      ],
      call: { target: 'x__read' },
    },
    method === 'resources/read'
      ? { name: `${method}: a pii session reads a URI that carries nothing out (not built for a host, server not open-world)`, method, before: labelPii, call: { target: 'x__read' } }
      : {
          name: `${method}: a pii session may not send arguments to a server that is open-world (the default)`,
          method,
          before: labelPii,
          call: { target: 'x__read', args: { topic: 'hello' } },
          refused: { step: 'information-flow', reason: 'the session holds pii data and x__read is cleared for public only (its server is open-world: the arguments leave the trust boundary)', rule: 'clearance public' },
        },
    { name: `${method}: no path check`, method, call: { target: 'x__read', args: { path: '/etc/passwd' } } },
    {
      name: `${method}: content-filter block applies`,
      method,
      call: { agent: 'blocker', target: 'x__read', text: `here: ${AWS_KEY}` },
      refused: { step: 'content-filter', reason: 'the content contained secret (aws-access-key-id) and was withheld', rule: 'aws-access-key-id' },
      executes: true,
    },
    { name: `${method}: no principal`, method, call: { principal: null, target: 'x__read' }, refused: { step: 'authenticate', reason: 'no identity with a role is attached to this session' } },
    { name: `${method}: pause applies`, method, before: pause, call: { target: 'x__read' }, refused: { step: 'pause', reason: 'sluice is paused by the operator' } },
    {
      name: `${method}: the rate limit applies`,
      method,
      before: (ctx) => allowed(ctx, { method, agent: 'limited', target: 'x__read' }),
      call: { agent: 'limited', target: 'x__read' },
      refused: { step: 'rate-limit', reason: /^rate limit exceeded; retry in/, rule: '0.001/s' },
    },
    {
      name: `${method}: an unknown name`,
      method,
      call: { target: 'nope\u202E' },
      refused: { step: 'resolve', reason: `no ${method === 'prompts/get' ? 'prompt' : 'resource'} "nope\\u{202e}" is offered` },
    },
  ]),
  {
    name: 'resources/read: a pii session may not read a URI built for a host (what it carries leaves)',
    method: 'resources/read',
    before: labelPii,
    call: { target: 'https://example.com/q?x=1' },
    refused: {
      step: 'information-flow',
      reason: 'the session holds pii data and https://example.com/q?x=1 is cleared for public only (the URI was built by the client and is fetched beyond the trust boundary: what it carries leaves)',
      rule: 'clearance public',
    },
  },
  {
    name: 'resources/read: the URL rules apply to a URI that reaches a host',
    method: 'resources/read',
    call: { target: 'http://169.254.169.254/latest/meta-data' },
    refused: { step: 'urls', reason: /^URL http:\/\/169\.254\.169\.254\/latest\/meta-data at uri points at a cloud metadata host/ },
  },
  {
    name: 'prompts/get: the URL rules apply to its arguments',
    method: 'prompts/get',
    call: { target: 'greet', args: { site: 'http://127.0.0.1:8080/admin' } },
    refused: { step: 'urls', reason: /^URL http:\/\/127\.0\.0\.1:8080\/admin at site points at a loopback host/ },
  },
  {
    name: 'prompts/get: a secret in the arguments may not go to an open-world server',
    method: 'prompts/get',
    call: { target: 'greet', args: { note: `key ${AWS_KEY}` } },
    refused: { step: 'information-flow', reason: /^the session holds secret data and greet is cleared for public only/, rule: 'clearance public' },
  },
  { name: 'completion/complete: what is typed reaches the server (and what comes back raises the label)', method: 'completion/complete', call: { target: 'greet', args: { argument: { name: 'city', value: 'Par' } } } },
  { name: 'completion/complete: pause applies', method: 'completion/complete', before: pause, call: { target: 'greet' }, refused: { step: 'pause', reason: 'sluice is paused by the operator' } },
  {
    name: 'completion/complete: the rate limit applies',
    method: 'completion/complete',
    before: (ctx) => allowed(ctx, { method: 'completion/complete', agent: 'limited', target: 'greet' }),
    call: { agent: 'limited', target: 'greet' },
    refused: { step: 'rate-limit', reason: /^rate limit exceeded; retry in/, rule: '0.001/s' },
  },
  {
    name: 'completion/complete: a pii session may not type into an open-world server',
    method: 'completion/complete',
    before: labelPii,
    call: { target: 'greet', args: { argument: { name: 'city', value: 'Par' } } },
    refused: { step: 'information-flow', reason: /^the session holds pii data and greet is cleared for public only/, rule: 'clearance public' },
  },
  {
    name: 'completion/complete: the URL rules apply to what is typed',
    method: 'completion/complete',
    call: { target: 'greet', args: { argument: { name: 'site', value: 'http://169.254.169.254/' } } },
    refused: { step: 'urls', reason: /points at a cloud metadata host/ },
  },
  { name: 'resources/subscribe: pause applies', method: 'resources/subscribe', before: pause, call: { target: 'mem://notes/a' }, refused: { step: 'pause', reason: 'sluice is paused by the operator' } },
  {
    name: 'resources/subscribe: a pii session may not subscribe to a URI built for a host',
    method: 'resources/subscribe',
    before: labelPii,
    call: { target: 'https://example.com/q?x=1' },
    refused: { step: 'information-flow', reason: /^the session holds pii data and https:\/\/example\.com\/q\?x=1 is cleared for public only/, rule: 'clearance public' },
  },
  {
    name: 'prompts/get: a per-tool bucket does not apply to a prompt of the same name',
    method: 'prompts/get',
    before: (ctx) => allowed(ctx, { agent: 'pertool', target: 'x__a' }),
    call: { agent: 'pertool', target: 'x__b' },
  },
];

describe('runChecked: resources/read and prompts/get run the lighter lists', () => {
  it('READ_STEPS is TOOL_STEPS without the tool-only checks, plus the resource rules; PROMPT_STEPS has no resource or path rules', () => {
    expect(READ_STEPS.filter((s) => !(TOOL_STEPS as readonly string[]).includes(s))).toEqual(['resource-rule']);
    expect(TOOL_STEPS.filter((s) => !(READ_STEPS as readonly string[]).includes(s))).toEqual(['tool-rule', 'operation', 'pre-hook', 'path-filter', 'post-hook']);
    expect(READ_STEPS.filter((s) => !(PROMPT_STEPS as readonly string[]).includes(s))).toEqual(['resource-rule', 'paths']);
  });

  it.each(READS)('$name', async (row) => {
    const ctx = await setup({ hooks: row.hooks });
    await row.before?.(ctx);
    const spec = { ...row.call, method: row.method };
    const agent = row.call.principal === null ? undefined : (row.call.agent ?? 'dev');
    const holder = holderOf(agent ?? 'nobody-at-all');
    const labelBefore = await ctx.state.labels.of(holder);
    const sent = resultFor(row.method, row.call.target, row.call.text ?? 'all good');

    const { outcome, events, executed } = await eventsOf(ctx, () => ctx.call(spec));

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method: row.method, target: row.call.target.replace('\u202E', '\\u{202e}'), agent: agent ?? '(none)', session: holder.id });
    if (row.method === 'resources/read' || row.method === 'resources/subscribe') expect(events[0].arguments).toBeUndefined();
    if (row.refused) {
      const reason = typeof row.refused.reason === 'string' ? row.refused.reason : expect.stringMatching(row.refused.reason);
      expect(outcome).toEqual({ ok: false, refusal: { outcome: 'deny', step: row.refused.step, reason, rule: row.refused.rule } });
      expect(executed).toBe(row.executes ? 1 : 0);
      expect(events[0]).toMatchObject({ outcome: 'deny', step: row.refused.step, reason, rule: row.refused.rule });
      expect(events[0].result).toBeUndefined();
      expect(await ctx.state.labels.of(holder)).toEqual(labelBefore);
    } else {
      expect(outcome).toEqual({ ok: true, result: sent });
      expect(executed).toBe(1);
      expect(events[0]).toMatchObject({ outcome: 'allow', upstream: 'x', result: sent, labelBefore, labelAfter: { ...labelBefore, integrity: 'untrusted' } });
      expect(events[0].step).toBeUndefined();
      expect(await ctx.state.labels.of(holder)).toEqual({ ...labelBefore, integrity: 'untrusted' });
    }
  });
});

describe('coverage of the step list', () => {
  it('every step of TOOL_STEPS has a row or test above that ends there', () => {
    // execute: 'an execute that throws'; record: the recorder tests; the rest from the tables.
    const covered = new Set<Step>([...REFUSALS.map((r) => r.step), ...THROWING.map((r) => r.step), 'execute', 'record']);
    expect(TOOL_STEPS.filter((s) => !covered.has(s))).toEqual([]);
  });
});

describe('runChecked: what the audit record keeps of the arguments', () => {
  const INJECT = path.join(HOOKS, 'inject-secret.js');

  it('arguments the flow step found clean are marked so, and recorded as they are', async () => {
    const ctx = await setup();
    const { events } = await eventsOf(ctx, () => ctx.call({ target: 'x__write', args: { message: 'hi' } }));
    expect(events[0].argumentsClean).toBe(true);
    expect(recordOf(events[0], 1024).arguments).toBe('{"message":"hi"}');
  });

  it('a secret in the arguments is redacted in the record (the call is refused: it would carry it out)', async () => {
    const ctx = await setup();
    const { events } = await eventsOf(ctx, () => ctx.call({ target: 'x__write', args: { message: `key ${AWS_KEY}` } }));
    expect(events[0]).toMatchObject({ outcome: 'deny', step: 'information-flow', argumentsClean: false });
    const kept = recordOf(events[0], 1024).arguments!;
    expect(kept).toContain('[REDACTED:aws-access-key-id]');
    expect(kept).not.toContain(AWS_KEY);
  });

  it('arguments a pre-hook changed after the scan are scanned again for the record', async () => {
    const ctx = await setup({ hooks: [{ module: INJECT, stage: 'pre' }] });
    const { outcome, events } = await eventsOf(ctx, () => ctx.call({ target: 'x__write', args: { message: 'hi' } }));
    expect(outcome.ok).toBe(true);
    expect(events[0].argumentsClean).toBeUndefined();
    const kept = recordOf(events[0], 1024).arguments!;
    expect(kept).toContain('[REDACTED:aws-access-key-id]');
    expect(kept).not.toContain(AWS_KEY);
  });
});

describe('runChecked: an approval does not outrank the pause', () => {
  it('a call approved after the operator paused is refused at pause, not run, and recorded so', async () => {
    const ctx = await setup({
      ports: (state) => ({
        // The human approves — but meanwhile the operator paused sluice.
        approver: async () => {
          await state.switches.set('paused', true);
          return { granted: true };
        },
      }),
    });
    const { outcome, events, executed } = await eventsOf(ctx, () => ctx.call({ target: 'x__needs_ok' }));
    expect(outcome).toEqual({ ok: false, refusal: { outcome: 'deny', step: 'pause', reason: 'sluice was paused while the call waited for approval; it was approved but not run' } });
    expect(executed).toBe(0);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ outcome: 'deny', step: 'pause', target: 'x__needs_ok' });
  });

  it('a retry carrying an earlier approval of this very call is not asked again — but the pause still holds', async () => {
    let asked = 0;
    const ctx = await setup({ ports: () => ({ approver: async () => (asked++, { granted: true }) }) });
    const retry = (): Promise<Outcome> =>
      runChecked({
        method: 'tools/call',
        security: ctx.security,
        principal: principalOf('dev', ctx.config),
        holder: holderOf('dev'),
        transport: 'http',
        target: 'x__needs_ok',
        arguments: {},
        approvedBefore: true,
        resolve: () => ({ server: ctx.config.servers[0] as ServerConfig, upstreamName: 'needs_ok', definition: CATALOG.x__needs_ok }),
        execute: async (_r, _a, run) => ({ content: [{ type: 'text', text: `approved: ${run.approved}` }] }),
      });
    expect(await retry()).toEqual({ ok: true, result: { content: [{ type: 'text', text: 'approved: true' }] } });
    expect(asked).toBe(0);
    await ctx.state.switches.set('paused', true);
    expect(await retry()).toMatchObject({ ok: false, refusal: { step: 'pause' } });
  });
});
