import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { UnsealedRecord } from '../../src/audit/chain.js';
import { AuditLog } from '../../src/audit/log.js';
import { HeadSigner } from '../../src/audit/signing.js';
import { SqliteAuditStore } from '../../src/audit/sqlite-store.js';
import { loadConfig } from '../../src/config/load.js';
import { CLI, EVERYTHING, OPEN_ACCESS, ROOT } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';
import { freePort } from '../helpers/spawn.js';

/**
 * Attacks on the signed audit log by someone with write access to the file but not the signing key, who
 * works on the records after the last signed head — where only the chain, which anyone can extend, vouches for
 * them. `verify --key` must always say how many such records there are; `--strict` must fail on any.
 */
const record = (i: number, over: Partial<UnsealedRecord> = {}): UnsealedRecord => ({
  time: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
  kind: 'decision',
  agent: 'alice',
  session: 's',
  transport: 'http',
  method: 'tools/call',
  target: `files__read_${i}`,
  outcome: 'allow',
  ...over,
});

/** A log of `n` records with signed heads after `signedAt` records each (as the signing interval would). */
async function signedLog(signedAt: number[], n: number): Promise<{ config: string; file: string; key: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-signed-'));
  const config = writeConfig(dir, 'mcpServers: {}\n');
  const file = loadConfig(config).security.audit.file;
  const log = new AuditLog(new SqliteAuditStore(file), { signer: HeadSigner.loadOrCreate(path.join(dir, '.sluice')), signQuietMs: 3_600_000 });
  for (let i = 1; i <= n; i++) {
    await log.write(record(i));
    if (signedAt.includes(i)) await log.signHead();
  }
  await log.settle();
  await log.store.close(); // no closing signature: what was signed is exactly what the test says
  return { config, file, key: path.join(dir, '.sluice', 'audit-signing-key.pub.pem') };
}

const verify = (config: string, key: string, strict = false) => runSluice(['audit', 'verify', '-c', config, '--key', key, ...(strict ? ['--strict'] : [])]);

async function expectUnsigned(config: string, key: string, tail: number, lastSigned: number) {
  const plain = await verify(config, key);
  expect(plain.code).toBe(0);
  expect(plain.stdout).toMatch(new RegExp(`; ${tail} records? after the last signed head \\(record ${lastSigned}\\)`));
  const strict = await verify(config, key, true);
  expect(strict.code).toBe(1);
  expect(strict.stdout).toMatch(/^UNSIGNED: /);
}

describe('the signed audit log, attacked after its last signed head', () => {
  it('reports a forged, correctly chained record appended after the last signature, and --strict fails on it', async () => {
    const { config, file, key } = await signedLog([5], 5);
    expect((await verify(config, key, true)).code).toBe(0); // the control: everything signed
    const forger = new SqliteAuditStore(file);
    await forger.append([record(6, { agent: 'mallory', outcome: 'allow', target: 'files__write_file' })]);
    await forger.close();
    await expectUnsigned(config, key, 1, 5);
  });

  it('reports deleting the last record together with its signature', async () => {
    const { config, file, key } = await signedLog([4, 8], 8);
    const db = new Database(file);
    db.prepare('DELETE FROM audit WHERE seq = 8').run();
    db.prepare('DELETE FROM audit_signatures WHERE seq = 8').run();
    db.close();
    await expectUnsigned(config, key, 3, 4);
  });

  it('reports rewriting everything after the first signed head with the later signatures deleted', async () => {
    const { config, file, key } = await signedLog([3, 6, 9], 9);
    const db = new Database(file);
    const kept = db.prepare('SELECT body FROM audit WHERE seq > 3 ORDER BY seq').all() as { body: string }[];
    db.prepare('DELETE FROM audit WHERE seq > 3').run();
    db.prepare('DELETE FROM audit_signatures WHERE seq > 3').run();
    db.close();
    const forger = new SqliteAuditStore(file);
    await forger.append(kept.map((r) => ({ ...(JSON.parse(r.body) as UnsealedRecord), outcome: 'deny' })));
    await forger.close();
    await expectUnsigned(config, key, 6, 3);
  });
});

describe('a gateway killed before its first signing interval', () => {
  it('leaves a log that verifies with the key: the head is signed once writes go quiet, a short tail is reported, never "BROKEN"', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-killed-'));
    const config = writeConfig(dir, `listen: 127.0.0.1:0\nlogLevel: info\ndataDir: ${JSON.stringify(path.join(dir, 'data'))}\n${OPEN_ACCESS}mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
    const key = path.join(dir, 'data', 'audit-signing-key.pub.pem');
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '-c', config, '--listen', `127.0.0.1:${port}`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr.on('data', (c: Buffer) => ((seen += c.toString()), seen.includes('sluice listening') && resolve()));
      child.once('exit', (code) => reject(new Error(`gateway exited (${code}): ${seen}`)));
    });
    const call = (message: string) =>
      fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'everything__echo', arguments: { message }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      }).then((r) => r.json());
    for (let i = 0; i < 5; i++) await call(`quiet-${i}`);
    await new Promise((r) => setTimeout(r, 1600)); // writes went quiet: the head is signed within a second
    await call('the last one'); // then killed before it can be signed
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const result = await verify(config, key);
    expect(result.stdout).not.toMatch(/BROKEN/);
    expect(result.code).toBe(0);
    // Six calls, after one record per definition server-everything offered at first sight (issue 16).
    const [, total, last] = /^OK: (\d+) records verified, 1 signed heads valid; 1 record after the last signed head \(record (\d+)\)/.exec(result.stdout) ?? [];
    expect(Number(total)).toBeGreaterThan(6);
    expect(Number(last)).toBe(Number(total) - 1);
  }, 60_000);
});
