import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteAuditStore } from '../../src/audit/sqlite-store.js';
import { loadConfig } from '../../src/config/load.js';
import { CLI, EVERYTHING, OPEN_ACCESS, ROOT } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';
import { freePort } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

/** Starts a gateway process and resolves once it is ready: listening, and its upstream up (/readyz 200). */
async function startGateway(config: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '-c', config, '--listen', `127.0.0.1:${port}`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (c: Buffer) => {
      seen += c.toString();
      if (seen.includes('sluice listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}): ${seen}`)));
  });
  // It listens before its upstreams are up: the load below should meet a gateway that can answer.
  await waitFor(() => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false), 20_000, 'the gateway to be ready');
  return child;
}

/** One stateless tools/call carrying a trace id we can look for in the log afterwards. */
async function call(port: number, traceId: string): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'everything__echo', arguments: { message: traceId }, _meta: { traceparent: `00-${traceId}-${'1'.repeat(16)}-01`, 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    const body = (await res.json()) as { result?: { content?: { text: string }[] } };
    return body.result?.content?.[0]?.text === `Echo: ${traceId}`;
  } catch {
    return false; // the gateway died under this call: the client never saw a result
  }
}

/** Calls each gateway answers before the crash, and the survivor after it: two writers interleaving, whatever the machine's speed. */
const CALLS = 25;

describe('audit log under two writer processes and a crash', () => {
  it('keeps one verifiable chain holding every call whose result a client received', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-crash-'));
    const config = writeConfig(dir, `logLevel: info\n${OPEN_ACCESS}mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
    const [portA, portB] = [await freePort(), await freePort()];
    const [a, b] = await Promise.all([startGateway(config, portA), startGateway(config, portB)]);
    // Which gateway answered each call: both must, before and after the crash, however busy the machine is.
    const answered = new Map<number, string[]>([[portA, []], [portB, []]]);
    let stop = false;
    const worker = async (port: () => number) => {
      while (!stop) {
        const id = randomBytes(16).toString('hex');
        const to = port();
        if (await call(to, id)) answered.get(to)!.push(id);
      }
    };
    let aAlive = true;
    const workers = [
      worker(() => portA), worker(() => portA), worker(() => portB), worker(() => portB),
      worker(() => (aAlive ? portA : portB)),
    ];
    const count = (port: number) => answered.get(port)!.length;
    try {
      await waitFor(() => count(portA) >= CALLS && count(portB) >= CALLS, 40_000, `both gateways to answer ${CALLS} calls`);
      a.kill('SIGKILL'); // mid-load, no chance to flush or close
      aAlive = false;
      const beforeCrash = count(portB);
      await waitFor(() => count(portB) >= beforeCrash + CALLS, 40_000, `the other gateway to answer ${CALLS} more calls after the crash`);
    } finally {
      stop = true;
      await Promise.all(workers);
      a.kill('SIGKILL');
      b.kill('SIGTERM');
      if (b.exitCode === null && b.signalCode === null) await new Promise((r) => b.once('exit', r));
    }

    const received = [...answered.values()].flat();
    const verify = await runSluice(['audit', 'verify', '-c', config]);
    expect(verify.stdout).toMatch(/^OK: \d+ records verified/);
    expect(verify.code).toBe(0);
    const store = new SqliteAuditStore(loadConfig(config).security.audit.file);
    const logged = new Set((await store.query({ limit: 1_000_000 })).map((r) => r.traceId));
    await store.close();
    const missing = received.filter((id) => !logged.has(id));
    expect(missing).toEqual([]);
  }, 120_000);
});
