/**
 * The pipeline's checks that cannot decide — a store that rejects or throws, a catalog that throws — each row with
 * the step that must refuse. Shared by test/unit/pipeline-failures.test.ts, which runs them, and the step-list
 * coverage check in test/unit/pipeline-refusals.test.ts.
 */
import type { Step } from '../../src/policy/decision.js';
import type { SecurityPorts } from '../../src/policy/security.js';
import type { LabelStore, StateStores } from '../../src/state/ports.js';
import type { CallSpec } from './pipeline.js';

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

export interface ThrowRow {
  name: string;
  ports?: (state: StateStores) => Partial<SecurityPorts>;
  call: CallSpec;
  step: Step;
  reason: string;
  executes?: boolean;
}

export const THROWING: ThrowRow[] = [
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
