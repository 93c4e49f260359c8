import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CpuSplit } from './cpu.js';
import type { Child } from './processes.js';
import type { PathName } from './settings.js';

export type HttpPath = Exclude<PathName, 'stdio'>;

/** One HTTP endpoint under test, running as its own process on 127.0.0.1. */
export interface HttpTarget {
  path: HttpPath;
  url: string;
  /** The echo tool's name as this endpoint lists it (sluice namespaces it). */
  tool: string;
  /** Headers every request must carry (sluice's bearer token when security is on). */
  headers: Record<string, string>;
  /** CPU used so far by the gateway process and by the server processes it spawned. */
  cpu(): CpuSplit;
  stop(): Promise<void>;
}

/** Resolves once `url` answers with a status `ok` accepts; any earlier refusal just means "not yet". */
export async function waitForHttp(child: Child, url: string, ok: (status: number) => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`${child.name} exited with code ${child.proc.exitCode}:\n${child.output()}`);
    const status = await new Promise<number>((resolve) => {
      const req = request(url, { method: 'GET', agent: false, headers: { accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy(); // an SSE stream would stay open otherwise
      });
      req.on('error', () => resolve(0));
      req.end();
    });
    if (status !== 0 && ok(status)) return;
    await sleep(100);
  }
  throw new Error(`${child.name} did not become ready at ${url} within ${timeoutMs} ms:\n${child.output()}`);
}
