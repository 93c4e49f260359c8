import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/chain.js';
import { startGatewayFromFile, type TestGateway } from '../helpers/gateway.js';
import { postRaw } from '../helpers/clients.js';
import { EVERYTHING, OPEN_ACCESS, ROOT } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

/**
 * Another process holds the audit file's write lock for 10 s (`BEGIN IMMEDIATE`). The gateway must keep
 * answering everything that needs no record, withhold the result whose record cannot be committed yet, and
 * — once the lock is gone — have every call that ran in a log that verifies.
 */
let gw: TestGateway;
let config: string;
let auditFile: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-locked-'));
  config = writeConfig(dir, `listen: 127.0.0.1:0\nlogLevel: silent\ndataDir: ${JSON.stringify(path.join(dir, 'data'))}\n${OPEN_ACCESS}mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
  gw = await startGatewayFromFile(config);
  auditFile = gw.gateway.config.security.audit.file;
});
afterAll(async () => gw?.stop());

/** A second process that takes the write lock, says so, and lets go after `ms`. */
function holdLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)}); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('released'); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const released = new Promise<void>((done) => child.once('exit', () => done()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('locked')) resolve({ released });
    });
    child.once('error', reject);
  });
}

async function openSession(): Promise<string> {
  const init = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'locked', version: '1' } } }));
  return init.headers.get('mcp-session-id')!;
}

const request = (session: string, id: number, method: string, params: unknown = {}) =>
  postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id, method, params }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });

describe('a locked audit file', () => {
  it('delays records, never other traffic; withholds the result until its record lands; loses nothing', async () => {
    const caller = await openSession();
    const other = await openSession();
    expect((await request(caller, 1, 'tools/call', { name: 'everything__echo', arguments: { message: 'warm-up' } })).status).toBe(200);

    const lock = await holdLock(auditFile, 10_000);
    const lockedAt = performance.now();
    let answeredAt = 0;
    const pending = request(caller, 2, 'tools/call', { name: 'everything__echo', arguments: { message: 'during the lock' } }).then((r) => ((answeredAt = performance.now()), r));

    // While the lock is held: /healthz within 100 ms every time, and another session's tools/list answers.
    const health: number[] = [];
    let listed = 0;
    let lastListedAt = 0;
    while (performance.now() - lockedAt < 8_000) {
      const t = performance.now();
      const res = await fetch(gw.url.replace('/mcp', '/healthz'));
      health.push(performance.now() - t);
      expect(res.status).toBe(200);
      const list = await request(other, 10 + listed, 'tools/list');
      expect((list.json() as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
      listed++;
      lastListedAt = performance.now();
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(answeredAt).toBe(0); // the result waits for its record
    expect(Math.max(...health)).toBeLessThan(100);
    // Answered all along the lock, not only before it bit (how many fit in 8 s is the machine's business).
    expect(listed).toBeGreaterThan(1);
    expect(lastListedAt - lockedAt).toBeGreaterThan(4_000);
    expect(gw.gateway.audit!.waiting).toBeGreaterThan(0);

    await lock.released;
    const res = await pending;
    expect((res.json() as { result: { content: { text: string }[] } }).result.content[0].text).toBe('Echo: during the lock');
    expect(answeredAt - lockedAt).toBeGreaterThan(9_000);

    await gw.gateway.audit!.settle();
    const exported = await runSluice(['audit', 'export', '-c', config]);
    const records = exported.stdout.trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);
    expect(records.some((r) => r.target === 'everything__echo' && r.outcome === 'allow' && (r.arguments ?? '').includes('during the lock'))).toBe(true);
    const verify = await runSluice(['audit', 'verify', '-c', config]);
    expect(verify.stdout).toMatch(/^OK: \d+ records verified/);
    expect(verify.code).toBe(0);
  }, 40_000);
});
