import { readdirSync, readFileSync } from 'node:fs';
import { descendants } from './proc-tree.js';

/**
 * CPU time spent by processes, read from /proc. Throughput on a shared VM swings with the host's load; the
 * CPU a gateway burns per call hardly does, so it is the steadier measure of the gateway's own cost.
 * Linux only: elsewhere every figure is 0.
 */

/** CPU time in ns of every thread of one process (/proc/<pid>/task/<tid>/schedstat, first field). */
export function processCpuNs(pid: number): number {
  let total = 0;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0; // gone, or not Linux
  }
  for (const tid of tids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return total;
}

/** CPU ns used so far by a gateway process and by the server processes it spawned. */
export interface CpuSplit {
  gateway: number;
  upstream: number;
}

/** A reader for a gateway process: its own CPU, and that of every process below it (the servers it spawned). */
export function treeCpu(pid: number): () => CpuSplit {
  return () => {
    let upstream = 0;
    for (const child of descendants(pid)) upstream += processCpuNs(child);
    return { gateway: processCpuNs(pid), upstream };
  };
}
