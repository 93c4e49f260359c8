/**
 * The security pipeline (runChecked) in process: a check that cannot decide says no. A store that fails, a catalog
 * that throws or an upstream that throws each end the call at the step that failed, with one record of it.
 */
import { describe, expect, it } from 'vitest';
import { THROWING } from '../helpers/pipeline-failing-stores.js';
import { eventsOf, flush, setup } from '../helpers/pipeline.js';

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
