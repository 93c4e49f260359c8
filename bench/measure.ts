import { performance } from 'node:perf_hooks';
import type { CpuSplit } from './cpu.js';
import type { EchoClient } from './echo-client.js';

/** CPU nanoseconds spent during one run, by where they were spent. */
export interface CpuUse {
  /** This (the bench) process: the client library's cost. */
  client: number;
  gateway: number;
  upstream: number;
}

/** One timed run of one cell: how many calls completed, over how long, each call's latency, and the CPU used. */
export interface Run {
  calls: number;
  seconds: number;
  latenciesMs: Float64Array;
  cpuNs: CpuUse;
}

/**
 * Makes `calls` echo calls with `concurrency` callers, caller i using clients[i] (its own session), each
 * caller starting its next call the moment its previous one returns. It stops issuing calls after
 * `maxSeconds` so a slow path cannot stretch the run; the calls already in flight still count. Every answer
 * is checked: a wrong echo aborts the run instead of producing a flattering number.
 */
export async function measure(clients: EchoClient[], concurrency: number, calls: number, maxSeconds: number, cpu: () => CpuSplit): Promise<Run> {
  if (clients.length < concurrency) throw new Error(`need ${concurrency} clients, have ${clients.length}`);
  const latencies = new Float64Array(calls);
  let next = 0;
  let done = 0;
  const caller = async (client: EchoClient) => {
    while (next < calls && performance.now() < stopAt) {
      const i = next++;
      const message = `bench ${i}`;
      const t0 = performance.now();
      const text = await client.echo(message);
      latencies[done++] = performance.now() - t0;
      if (text !== `Echo: ${message}`) throw new Error(`wrong answer to call ${i}: ${JSON.stringify(text).slice(0, 200)}`);
    }
  };
  const cpuBefore = cpu();
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  const stopAt = start + maxSeconds * 1000;
  await Promise.all(clients.slice(0, concurrency).map(caller));
  const seconds = (performance.now() - start) / 1000;
  const clientUsed = process.cpuUsage(clientBefore);
  const cpuAfter = cpu();
  return {
    calls: done,
    seconds,
    latenciesMs: latencies.slice(0, done),
    cpuNs: {
      client: (clientUsed.user + clientUsed.system) * 1000,
      gateway: cpuAfter.gateway - cpuBefore.gateway,
      upstream: cpuAfter.upstream - cpuBefore.upstream,
    },
  };
}
