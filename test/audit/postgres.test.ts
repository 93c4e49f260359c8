import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord, UnsealedRecord } from '../../src/audit/chain.js';
import { AuditLog } from '../../src/audit/log.js';
import { likePattern, openPostgresAuditStore, type PostgresAuditStore } from '../../src/audit/postgres-store.js';
import { HeadSigner } from '../../src/audit/signing.js';
import { verifyStore } from '../../src/audit/verify.js';
import { freshDatabase, startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

const record = (i: number, over: Partial<UnsealedRecord> = {}): UnsealedRecord => ({
  time: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
  kind: 'decision',
  agent: i % 2 ? 'alice' : 'bob',
  session: 's1',
  transport: 'http',
  method: 'tools/call',
  target: `t${i}`,
  outcome: i === 3 ? 'deny' : 'allow',
  ...over,
});

/** Raw SQL on the database, as an attacker with write access would do it. */
async function sql(url: string, text: string, args: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, args);
  } finally {
    await client.end();
  }
}

async function verified(url: string) {
  const store = await openPostgresAuditStore(url);
  try {
    return await verifyStore(store);
  } finally {
    await store.close();
  }
}

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

describe('the audit log in Postgres', () => {
  it('keeps one unbroken chain when three replicas append batches at once', async () => {
    const url = await freshDatabase(server.url);
    // Opened together, as replicas starting at once would: the schema is created once, under its lock.
    const stores = await Promise.all([0, 1, 2].map(() => openPostgresAuditStore(url)));
    let n = 0;
    const batches = stores.map((_, w) => Array.from({ length: 50 }, (_, b) => Array.from({ length: 1 + ((w * 7 + b * 13) % 20) }, () => record(++n, { agent: `writer-${w}` }))));
    const sealed = (await Promise.all(stores.map((store, w) => Promise.all(batches[w].map((batch) => store.append(batch)))))).flat(2);
    expect(sealed).toHaveLength(n);
    // Every batch got a run of its own: no two records share a place, none is missing.
    expect(sealed.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(await stores[0].head()).toEqual({ seq: n, hash: sealed.find((r) => r.seq === n)!.hash });
    expect(await verifyStore(stores[1])).toMatchObject({ ok: true, checked: n });
    expect((await sql(url, 'SELECT count(*)::int AS n FROM audit')).rows[0]).toEqual({ n });
    await Promise.all(stores.map((s) => s.close()));
  });

  it('stores and finds values Postgres text cannot hold as they are (NUL, a lone surrogate)', async () => {
    const url = await freshDatabase(server.url);
    const store = await openPostgresAuditStore(url);
    const odd = ['files\u0000read', 'bad\uD800name', 'ok_😀'];
    await store.append(odd.map((target, i) => record(i + 1, { target })));
    expect((await store.query({})).map((r) => r.target)).toEqual(odd); // the body keeps them exactly
    expect((await store.query({ target: 'files\u0000*' })).map((r) => r.seq)).toEqual([1]);
    expect((await store.query({ target: 'ok_?' })).map((r) => r.seq)).toEqual([3]); // ? is one character, not one UTF-16 unit
    expect(await verifyStore(store)).toMatchObject({ ok: true, checked: 3 });
    await store.close();
  });

  it('translates sluice globs to LIKE with %, _ and \\ escaped', () => {
    expect(likePattern('files__read*')).toBe('files\\_\\_read%');
    expect(likePattern('a?b%c\\d[e]')).toBe('a_b\\%c\\\\d[e]');
  });

  it('works with the CLI exactly as SQLite does: verify, tail, export, and a tampered row named', async () => {
    const url = await freshDatabase(server.url);
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-audit-pg-cli-'));
    const config = writeConfig(dir, `mcpServers: {}\naudit:\n  url: ${url}\n`);
    const log = new AuditLog(await openPostgresAuditStore(url), { signer: HeadSigner.loadOrCreate(path.join(dir, '.sluice')) });
    await Promise.all(Array.from({ length: 6 }, (_, i) => log.write(record(i + 1))));
    await log.close();
    const key = path.join(dir, '.sluice', 'audit-signing-key.pub.pem');

    const ok = await runSluice(['audit', 'verify', '--config', config, '--key', key, '--strict']);
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringMatching(/^OK: 6 records verified, 1 signed heads valid; 0 records after the last signed head/) });
    const exported = (await runSluice(['audit', 'export', '--agent', 'alice', '--config', config])).stdout.trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);
    expect(exported.map((r) => r.seq)).toEqual([1, 3, 5]);
    expect(exported.every((r) => r.agent === 'alice' && r.hash.length === 64)).toBe(true);
    const denied = (await runSluice(['audit', 'tail', '--outcome', 'deny', '--config', config])).stdout;
    expect(denied.trim().split('\n')).toEqual([expect.stringMatching(/^3 .* t3 +deny$/)]);
    const latest = (await runSluice(['audit', 'tail', '-n', '2', '--tool', 't?', '--config', config])).stdout.trim().split('\n');
    expect(latest.map((l) => l.split(' ')[0])).toEqual(['5', '6']);

    const original = (await sql(url, 'SELECT body FROM audit WHERE seq = 4')).rows[0].body as string;
    await sql(url, 'UPDATE audit SET body = $1 WHERE seq = 4', [original.replace('"t4"', '"t4-edited"')]);
    const edited = await runSluice(['audit', 'verify', '--config', config, '--key', key]);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(/^BROKEN at record 4: .*edited/);

    await sql(url, 'UPDATE audit SET body = $1 WHERE seq = 4', [original]);
    await sql(url, "UPDATE audit SET agent = 'nobody' WHERE seq = 5");
    const column = await runSluice(['audit', 'verify', '--config', config]);
    expect(column.code).toBe(1);
    expect(column.stdout).toMatch(/^BROKEN at record 5: its searchable columns differ/);
  }, 90_000);

  it('says which server it cannot reach, never the password', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const error = await openPostgresAuditStore(`postgres://sluice:hunter2@127.0.0.1:${port}/audit`).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(new RegExp(`cannot open the audit database at 127\\.0\\.0\\.1:${port}/audit: .*ECONNREFUSED`));
    expect(error?.message).not.toContain('hunter2');
    const cli = await runSluice(['audit', 'verify', '--config', writeConfig(mkdtempSync(path.join(tmpdir(), 'sluice-audit-pg-')), `mcpServers: {}\naudit:\n  url: postgres://sluice:hunter2@127.0.0.1:${port}/audit\n`)]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/cannot open the audit database at 127\.0\.0\.1/);
    expect(cli.stderr).not.toContain('hunter2');
  }, 60_000);

  it('rejects instead of hanging: a server that never answers, a chain lock held elsewhere', async () => {
    // A server that accepts connections and says nothing.
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `postgres://sluice:pw@127.0.0.1:${(silent.address() as { port: number }).port}/sluice`;
    let started = performance.now();
    await expect(openPostgresAuditStore(silentUrl, { connectTimeoutMs: 500 })).rejects.toThrow(/cannot open the audit database/);
    expect(performance.now() - started).toBeLessThan(3_000);
    for (const s of sockets) s.destroy();
    silent.close();

    // Another session holds the chain lock (a replica stuck mid-append): the append gives up and says so.
    const url = await freshDatabase(server.url);
    const store = await openPostgresAuditStore(url, { statementTimeoutMs: 500 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(1936487779, 1)');
    started = performance.now();
    await expect(store.append([record(1)])).rejects.toThrow(/statement timeout/);
    expect(performance.now() - started).toBeLessThan(3_000);
    await holder.query('ROLLBACK');
    await holder.end();
    expect((await store.append([record(1)]))[0].seq).toBe(1);
    await store.close();
  });

  // Last: it stops the shared server for a while.
  it('rejects at once while Postgres is down; the log keeps the records queued and lands them when it is back', async () => {
    const url = await freshDatabase(server.url);
    const store: PostgresAuditStore = await openPostgresAuditStore(url);
    await store.append([record(1)]);
    const log = new AuditLog(store);
    // Appends in flight on another database when the server goes: each lands or rejects, none hangs, and the
    // connections' errors do not crash the process (vitest fails the run on an uncaught one).
    const busy = await openPostgresAuditStore(await freshDatabase(server.url));
    const inFlight = Promise.allSettled(Array.from({ length: 100 }, (_, i) => busy.append(Array.from({ length: 20 }, (_, j) => record(i * 20 + j + 1)))));
    await new Promise((r) => setTimeout(r, 20));
    await server.pause();
    expect((await inFlight).some((r) => r.status === 'rejected')).toBe(true);
    await busy.close();
    const started = performance.now();
    await expect(store.append([record(2)])).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(5_000);

    const writes = Array.from({ length: 20 }, (_, i) => log.write(record(i + 2)));
    await new Promise((r) => setTimeout(r, 300));
    expect(log.waiting).toBe(20);
    await server.resume();
    const landed = await Promise.all(writes);
    expect(landed.map((r) => r?.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    await log.close();
    expect(await verified(url)).toMatchObject({ ok: true, checked: 21 });
  }, 60_000);
});
