/**
 * The security pipeline (runChecked) in process: calls it lets through — what the upstream receives, what the client
 * gets back, how the session's label moves, and the one allow record each leaves.
 */
import { describe, expect, it } from 'vitest';
import { BOTTOM, type Label } from '../../src/ifc/label.js';
import type { Params } from '../../src/protocol/jsonrpc.js';
import { ALLOWED, AWS_KEY, PII, REWRITE, UNTRUSTED, eventsOf, holderOf, labelPii, resultFor, setup, type CallSpec, type Ctx, type HookSpec } from '../helpers/pipeline.js';

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
