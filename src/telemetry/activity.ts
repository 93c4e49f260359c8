import type { Gateway } from '../gateway/gateway.js';
import type { DecisionEvent } from '../policy/decision.js';

const WINDOW_S = 300;
const OUTCOMES = ['allow', 'deny', 'approve', 'error'] as const;
type Outcome = (typeof OUTCOMES)[number];
/** At most this many durations are kept per second for its percentiles (a fair sample of a busy second). */
const SAMPLES_PER_SECOND = 500;

interface Second {
  at: number;
  counts: Record<Outcome, number>;
  durations: number[];
  seen: number;
}

export interface ActivitySnapshot {
  /** Epoch seconds, oldest first, one per second of the window. */
  seconds: number[];
  counts: Record<Outcome, number[]>;
  /** Milliseconds; null for a second without calls. */
  p50: (number | null)[];
  p99: (number | null)[];
}

/**
 * What the console's charts draw: checked calls per second by outcome, and their p50/p99 latency, over the
 * last five minutes — kept from the decision events in one small ring, so drawing costs the gateway nothing.
 */
export class Activity {
  private readonly ring = new Map<number, Second>();
  private readonly off: () => void;

  constructor(gateway: Gateway) {
    const onDecision = (d: DecisionEvent) => {
      if (d.method !== 'tools/call' && d.method !== 'resources/read' && d.method !== 'prompts/get') return;
      const outcome = (OUTCOMES as readonly string[]).includes(d.outcome) ? (d.outcome as Outcome) : 'error';
      this.note(outcome, d.durationMs);
    };
    this.off = gateway.onDecision(onDecision);
  }

  private note(outcome: Outcome, durationMs: number): void {
    const at = Math.floor(Date.now() / 1000);
    let second = this.ring.get(at);
    if (!second) {
      second = { at, counts: { allow: 0, deny: 0, approve: 0, error: 0 }, durations: [], seen: 0 };
      this.ring.set(at, second);
      for (const key of this.ring.keys()) if (key <= at - WINDOW_S) this.ring.delete(key);
    }
    second.counts[outcome]++;
    second.seen++;
    // Reservoir sampling: every duration of a busy second has the same chance to be kept.
    if (second.durations.length < SAMPLES_PER_SECOND) second.durations.push(durationMs);
    else {
      const i = Math.floor(Math.random() * second.seen);
      if (i < SAMPLES_PER_SECOND) second.durations[i] = durationMs;
    }
  }

  snapshot(): ActivitySnapshot {
    const now = Math.floor(Date.now() / 1000);
    const out: ActivitySnapshot = { seconds: [], counts: { allow: [], deny: [], approve: [], error: [] }, p50: [], p99: [] };
    for (let at = now - WINDOW_S + 1; at <= now; at++) {
      const second = this.ring.get(at);
      out.seconds.push(at);
      for (const o of OUTCOMES) out.counts[o].push(second?.counts[o] ?? 0);
      const sorted = second ? [...second.durations].sort((a, b) => a - b) : [];
      out.p50.push(sorted.length ? round(quantile(sorted, 0.5)) : null);
      out.p99.push(sorted.length ? round(quantile(sorted, 0.99)) : null);
    }
    return out;
  }

  stop(): void {
    this.off();
  }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const round = (ms: number) => Math.round(ms * 100) / 100;
