/**
 * The security pipeline (runChecked) in process: the audit record — a recorder that fails or is not keeping up, and
 * what the record keeps of a call's arguments.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordOf } from '../../src/audit/from-decision.js';
import { AWS_KEY, HOOKS, eventsOf, setup, type Method } from '../helpers/pipeline.js';

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
