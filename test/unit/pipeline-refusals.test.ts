/**
 * The security pipeline (runChecked) in process: for every step of tools/call that can refuse, a request it refuses —
 * and for each, the Outcome handed back and exactly what was recorded. The context is built by test/helpers/pipeline.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/policy/decision.js';
import { TOOL_STEPS } from '../../src/policy/step-names.js';
import { THROWING } from '../helpers/pipeline-failing-stores.js';
import {
  ALLOWED,
  AWS_KEY,
  LISTED,
  THROWS,
  allowed,
  eventsOf,
  holderOf,
  labelPii,
  pause,
  principalOf,
  setup,
  type CallSpec,
  type Ctx,
  type HookSpec,
} from '../helpers/pipeline.js';

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

describe('coverage of the step list', () => {
  it('every step of TOOL_STEPS has a row or test above that ends there', () => {
    // execute: 'an execute that throws'; record: the recorder tests; the rest from the tables.
    const covered = new Set<Step>([...REFUSALS.map((r) => r.step), ...THROWING.map((r) => r.step), 'execute', 'record']);
    expect(TOOL_STEPS.filter((s) => !covered.has(s))).toEqual([]);
  });
});
