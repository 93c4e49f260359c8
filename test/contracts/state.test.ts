import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryState } from '../../src/state/memory-state.js';
import { redisState } from '../../src/state/redis-state.js';
import { sqliteState } from '../../src/state/sqlite-state.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';

import { pending, stateContract } from './state.js';

stateContract('memory', async () => ({ state: memoryState() }));

const SQLITE_TABLES = ['session_labels', 'identity_marks', 'switches', 'approvals', 'grants', 'pins', 'records'];

/** Another connection to the file makes SQLite refuse every write to it: a trigger on every table. */
function refuseWrites(file: string): void {
  const other = new Database(file);
  for (const table of SQLITE_TABLES) {
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) other.exec(`CREATE TRIGGER refuse_${op}_${table} BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, 'writes refused'); END`);
  }
  other.close();
}

stateContract('sqlite', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sluice-state-')), 'state.db');
  const key = randomBytes(32);
  return { state: sqliteState(file, key), reopen: async () => sqliteState(file, key), breakWrites: async () => refuseWrites(file) };
});

describe('sqlite state shared by two processes on one data dir', () => {
  it('sees the other connection’s writes despite its read cache: labels, marks and the pause switch', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sluice-state-')), 'state.db');
    const key = randomBytes(32);
    const [a, b] = [sqliteState(file, key), sqliteState(file, key)];
    const holder = { id: 's1', agent: 'alice', stateless: false };
    expect(await b.labels.of(holder)).toEqual({ integrity: 'trusted', confidentiality: 'public' }); // cached in b
    expect(await b.switches.get('paused')).toBe(false); // cached in b
    await a.labels.raise(holder, { integrity: 'trusted', confidentiality: 'secret' });
    await a.switches.set('paused', true);
    // b looks for other writers at most once a millisecond (see src/state/sqlite/staleness.ts).
    await new Promise((r) => setTimeout(r, 5));
    expect(await b.labels.of(holder)).toEqual({ integrity: 'trusted', confidentiality: 'secret' });
    expect(await b.labels.of({ id: 'new', agent: 'alice', stateless: true })).toEqual({ integrity: 'trusted', confidentiality: 'secret' });
    expect(await b.switches.get('paused')).toBe(true);
    await a.close();
    await b.close();
  });
});

describe('redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  stateContract('redis', async () => {
    // Each test its own key prefix: a fresh store on the one server; and its own user, whose rights it can lose.
    const options = { keyPrefix: `t${randomBytes(4).toString('hex')}:`, sealKey: randomBytes(32) };
    const user = await redis.newUser();
    return {
      state: await redisState(user.url, options),
      reopen: () => redisState(user.url, options),
      breakWrites: async () => void (await redis.command('ACL', 'SETUSER', user.name, '-@write')),
    };
  });

  describe('shared by replicas', () => {
    const replicas = async () => {
      const options = { keyPrefix: `r${randomBytes(4).toString('hex')}:`, sealKey: randomBytes(32) };
      return Promise.all([redisState(redis.url, options), redisState(redis.url, options)]);
    };

    it('what one replica writes, the other sees at once: labels, buckets, approvals, tokens; the pause within 1 s', async () => {
      const [a, b] = await replicas();
      const holder = { id: 's1', agent: 'alice', stateless: false };
      await a.labels.raise(holder, { integrity: 'untrusted', confidentiality: 'secret' });
      expect(await b.labels.of({ id: 'other', agent: 'alice', stateless: true })).toEqual({ integrity: 'untrusted', confidentiality: 'secret' });
      const bucket = { key: 'global', bucket: { perSecond: 0.001, burst: 2 } };
      expect(await a.limits.take([bucket])).toEqual({ ok: true });
      expect(await b.limits.take([bucket])).toEqual({ ok: true });
      expect(await a.limits.take([bucket])).toMatchObject({ ok: false, index: 0 });

      const seen: boolean[] = [];
      b.switches.watch((_name, on) => seen.push(on));
      expect(await b.switches.get('paused')).toBe(false); // now cached in b
      const t0 = performance.now();
      await a.switches.set('paused', true);
      while (!(await b.switches.get('paused'))) await new Promise((r) => setTimeout(r, 5));
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(seen).toEqual([true]);

      const changed: number[] = [];
      a.approvals.watch(() => changed.push(1));
      await a.approvals.add(pending('p1'));
      const verdict = a.approvals.wait('p1');
      expect((await b.approvals.list()).map((p) => p.id)).toEqual(['p1']);
      const [first, second] = await Promise.all([b.approvals.settle('p1', { granted: true, outcome: 'granted', by: 'ops' }), a.approvals.settle('p1', { granted: false, outcome: 'denied', by: 'other' })]);
      expect([first, second].filter(Boolean)).toHaveLength(1); // exactly once, across replicas
      expect((await verdict).outcome).toBe(first ? 'granted' : 'denied');
      expect(changed.length).toBeGreaterThanOrEqual(1);

      const issued = await a.tokens!.issue('alice');
      expect(await b.tokens!.agentFor(issued.token)).toBe('alice');
      expect(await b.tokens!.agentFor(`${issued.token}x`)).toBeUndefined();
      await Promise.all([a.close(), b.close()]);
    });

    it('the bus carries a message to the other replicas, never back to its sender', async () => {
      const [a, b] = await replicas();
      const atA: string[] = [];
      const atB: string[] = [];
      a.bus.subscribe('sessions', (m) => atA.push(m.session));
      b.bus.subscribe('sessions', (m) => atB.push(m.session));
      await new Promise((r) => setTimeout(r, 50)); // the SUBSCRIBE reaches Redis
      await a.bus.publish('sessions', { session: 's1', kind: 'to-client', message: { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'x://1' } } });
      await b.bus.publish('sessions', { session: 's2', kind: 'ended' });
      await waitFor(() => atA.length === 1 && atB.length === 1, 2000, 'both messages');
      expect({ atA, atB }).toEqual({ atA: ['s2'], atB: ['s1'] });
      await Promise.all([a.close(), b.close()]);
    });

    it('fails closed when Redis is down — every check rejects at once, nothing hangs — and works again when it is back', async () => {
      const own = await startRedis();
      const state = await redisState(own.url, { keyPrefix: 'down:', sealKey: randomBytes(32) });
      const holder = { id: 's1', agent: 'alice', stateless: false };
      expect(await state.limits.take([{ key: 'k', bucket: { perSecond: 1, burst: 5 } }])).toEqual({ ok: true });
      await own.pause();
      await new Promise((r) => setTimeout(r, 600)); // past the pause switch's cache
      const t0 = performance.now();
      const outcomes = await Promise.allSettled([
        state.limits.take([{ key: 'k', bucket: { perSecond: 1, burst: 5 } }]),
        state.labels.of(holder),
        state.labels.raise(holder, { integrity: 'untrusted', confidentiality: 'public' }),
        state.switches.get('paused'),
        state.approvals.grants('alice', 't'),
        state.sessions.get('x'),
        state.tokens!.agentFor('slc_nope'),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(Array(7).fill('rejected'));
      expect(performance.now() - t0).toBeLessThan(2500);
      await own.start();
      await waitFor(async () => (await state.labels.of(holder).then(() => true, () => false)), 10_000, 'Redis back');
      expect(await state.limits.take([{ key: 'k', bucket: { perSecond: 1, burst: 5 } }])).toEqual({ ok: true });
      await state.close();
      await own.stop();
    });
  });
});
