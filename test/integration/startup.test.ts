import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openGateway } from '../../src/cli/serve.js';
import { parseConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/log.js';
import { EVERYTHING, ROOT } from '../helpers/servers.js';
import { SLUICE_NODE_ARGS, writeConfig } from '../helpers/sluice-cli.js';
import { freePort, stopChild } from '../helpers/spawn.js';

let child: ChildProcess | undefined;
afterAll(() => stopChild(child));

/** GET on the gateway: the status and JSON body, or undefined while nothing answers on the port. */
async function get(base: string, p: string): Promise<{ status: number; body: any } | undefined> {
  try {
    const res = await fetch(base + p, { signal: AbortSignal.timeout(1000) });
    return { status: res.status, body: await res.json() };
  } catch {
    return undefined;
  }
}

/** "silent" starts and reads its stdin but never answers: its first attempt ends only at the 30 s initialize timeout. */
const yaml = (port: number, dir: string, logLevel = 'silent') => `listen: 127.0.0.1:${port}
logLevel: ${logLevel}
dataDir: ${JSON.stringify(path.join(dir, 'data'))}
mcpServers:
  silent:
    command: node
    args: [-e, "process.stdin.resume()"]
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`;

describe('startup', () => {
  it('listens within a second of being started, and /readyz names the upstream whose first attempt still runs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-startup-'));
    const started = Date.now();
    const running = await openGateway(parseConfig(yaml(0, dir), 'test.yaml'), silentLogger);
    try {
      const base = `http://127.0.0.1:${running.address!.port}`;
      const health = await get(base, '/healthz');
      expect(health?.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
      const ready = await get(base, '/readyz');
      expect(ready?.status).toBe(503);
      expect(ready?.body).toMatchObject({ ready: false, starting: expect.arrayContaining(['silent']) });
    } finally {
      await running.stop();
    }
  });

  it('the sluice process answers /healthz at once and says in /readyz which servers are still starting, while one never answers initialize', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-startup-'));
    const port = await freePort();
    const config = writeConfig(dir, yaml(port, dir, 'info'));
    child = spawn(process.execPath, [...SLUICE_NODE_ARGS, 'serve', '--config', config], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    // The process counts as started when it has read its config and says so (loading the CLI under tsx takes seconds).
    let startedAt = 0;
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (!startedAt && log.includes('starting sluice')) startedAt = Date.now();
    });
    const base = `http://127.0.0.1:${port}`;
    let health: Awaited<ReturnType<typeof get>>;
    const deadline = Date.now() + 20_000;
    while (!(health = await get(base, '/healthz')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(health?.status, log.slice(-1000)).toBe(200);
    expect(startedAt).toBeGreaterThan(0);
    // Most of this is loading the gateway's modules under tsx on a busy machine (the test above times sluice's own part).
    expect(Date.now() - startedAt, 'ms from "starting sluice" to the first /healthz answer').toBeLessThan(5000);

    const ready = await get(base, '/readyz');
    expect(ready?.status).toBe(503);
    expect(ready?.body.ready).toBe(false);
    expect(ready?.body.starting).toContain('silent');
    expect(ready?.body.upstreams.find((u: { name: string }) => u.name === 'silent')?.state).toBe('connecting');

    // The other server is ready long before the silent one's attempt ends; /readyz stays 503 and names only the silent one.
    let later = ready;
    const until = Date.now() + 15_000;
    while (later?.body.upstreams.find((u: { name: string }) => u.name === 'everything')?.state !== 'ready' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      later = await get(base, '/readyz');
    }
    expect(later?.status).toBe(503);
    expect(later?.body.starting).toEqual(['silent']);
    // A stop signal is heard while the first attempt still runs: the process stops cleanly.
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
