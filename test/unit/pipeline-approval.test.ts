/**
 * The security pipeline (runChecked) in process: an approval does not outrank the operator's pause, neither one
 * granted while the call waited nor one a retry carries.
 */
import { describe, expect, it } from 'vitest';
import { runChecked, type Outcome } from '../../src/policy/chokepoint.js';
import { CATALOG, eventsOf, holderOf, principalOf, setup } from '../helpers/pipeline.js';

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
        resolve: () => ({ server: ctx.config.servers[0], upstreamName: 'needs_ok', definition: CATALOG.x__needs_ok }),
        execute: async (_r, _a, run) => ({ content: [{ type: 'text', text: `approved: ${run.approved}` }] }),
      });
    expect(await retry()).toEqual({ ok: true, result: { content: [{ type: 'text', text: 'approved: true' }] } });
    expect(asked).toBe(0);
    await ctx.state.switches.set('paused', true);
    expect(await retry()).toMatchObject({ ok: false, refusal: { step: 'pause' } });
  });
});
