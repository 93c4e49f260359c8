/**
 * The security pipeline (runChecked) in process: resources/read, prompts/get, completion/complete and
 * resources/subscribe run the lighter step lists — which checks apply to them, and which do not.
 */
import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/policy/decision.js';
import { PROMPT_STEPS, READ_STEPS, TOOL_STEPS } from '../../src/policy/step-names.js';
import { AWS_KEY, THROWS, allowed, eventsOf, holderOf, labelPii, pause, resultFor, setup, type CallSpec, type Ctx, type HookSpec, type Method } from '../helpers/pipeline.js';

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
