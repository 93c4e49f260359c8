import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionPin, StateStores } from '../../src/state/ports.js';
import { redisState } from '../../src/state/redis-state.js';
import { pending } from '../contracts/state.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';

/**
 * The Redis state when Redis fails for real — it refuses commands, refuses a MULTI, holds a key of the wrong
 * type, or is gone: whatever fails, every port refuses with the one documented error (fail closed), and nothing
 * acts as if a failed write were made.
 */
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const UNREACHABLE = /^the shared state \(Redis at 127\.0\.0\.1:\d+\/0\) is unreachable: /;
const holder = { id: 's1', agent: 'alice', stateless: false };
const options = () => ({ keyPrefix: `f${randomBytes(4).toString('hex')}:`, sealKey: randomBytes(32) });

/** Every method of every port that talks to Redis, once each. */
function everyMethod(state: StateStores): Record<string, () => Promise<unknown>> {
  const grant = { agent: 'alice', tool: 't', scope: 'session', session: 's1', definitionHash: 'd' } as const;
  const pin: DefinitionPin = { server: 'fs', kind: 'tool', name: 'read', hash: 'h', definition: {}, status: 'trusted', findings: [], firstSeen: 'x', changedAt: 'x' };
  return {
    'labels.of': () => state.labels.of(holder),
    'labels.raise': () => state.labels.raise(holder, { integrity: 'untrusted', confidentiality: 'public' }),
    'labels.forget': () => state.labels.forget('s1'),
    'labels.reset': () => state.labels.reset({ sessionId: 's1', agent: 'alice' }, ['s1']),
    'labels.identities': () => state.labels.identities(),
    'limits.take': () => state.limits.take([{ key: 'k', bucket: { perSecond: 1, burst: 5 } }]),
    'switches.get': () => state.switches.get('paused'),
    'switches.set': () => state.switches.set('paused', true),
    'approvals.add': () => state.approvals.add(pending('p1')),
    'approvals.list': () => state.approvals.list(),
    'approvals.settle': () => state.approvals.settle('p1', { granted: true, outcome: 'granted', by: 'ops' }),
    'approvals.wait': () => state.approvals.wait('p1'),
    'approvals.addGrant': () => state.approvals.addGrant(grant),
    'approvals.grants': () => state.approvals.grants('alice', 't'),
    'approvals.endSession': () => state.approvals.endSession('s1'),
    'sessions.get': () => state.sessions.get('x'),
    'sessions.put': () => state.sessions.put('x', { id: 'x', owner: 'o', agent: 'alice', via: 'token', transport: 'http', protocolVersion: '2025-06-18', clientCapabilities: {} }, 60_000),
    'sessions.touch': () => state.sessions.touch('x', 60_000),
    'sessions.delete': () => state.sessions.delete('x'),
    'tokens.agentFor': () => state.tokens!.agentFor('slc_nope'),
    'tokens.issue': () => state.tokens!.issue('alice'),
    'tokens.entries': () => state.tokens!.entries(),
    'bus.publish': () => state.bus.publish('sessions', { session: 's1', kind: 'ended' }),
    'pins.list': () => state.pins.list(),
    'pins.get': () => state.pins.get('fs', 'tool', 'read'),
    'pins.put': () => state.pins.put([pin]),
  };
}

/** How each call ended: its error's message, or "resolved". */
async function outcomes(calls: Record<string, () => Promise<unknown>>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, call] of Object.entries(calls)) out[name] = await call().then(() => 'resolved', (err: Error) => err.message);
  return out;
}

/** What every outcome should be: the documented error, with the reason after it. */
const allRefused = (calls: Record<string, unknown>, reason: RegExp) =>
  Object.fromEntries(Object.keys(calls).map((name) => [name, expect.stringMatching(new RegExp(UNREACHABLE.source + reason.source))]));

describe('the Redis state when Redis fails for real', () => {
  it('Redis refusing every command (its user lost its rights): every method of every port refuses with the documented error', async () => {
    const user = await redis.newUser();
    const state = await redisState(user.url, options());
    await redis.command('ACL', 'SETUSER', user.name, '-@all');
    const calls = everyMethod(state);
    expect(await outcomes(calls)).toEqual(allRefused(calls, /(EXECABORT .*)?NOPERM/)); // a MULTI: its EXEC was refused
    await redis.command('ACL', 'SETUSER', user.name, '+@all');
    expect(await state.labels.of(holder)).toEqual({ integrity: 'trusted', confidentiality: 'public' });
    await state.close();
  });

  it('Redis gone: every method of every port, writes too, refuses at once with the documented error, never ioredis’s own words', async () => {
    const own = await startRedis();
    const state = await redisState(own.url, options());
    await own.pause();
    const t0 = performance.now();
    const calls = everyMethod(state);
    expect(await outcomes(calls)).toEqual(allRefused(calls, /not connected/));
    expect(performance.now() - t0).toBeLessThan(2500);
    await state.close();
    await own.stop();
  });

  it('the pause switch: a MULTI that Redis refuses is refused, and the switch stays off on every replica with nobody told', async () => {
    const user = await redis.newUser();
    const shared = options();
    const [a, b] = await Promise.all([redisState(user.url, shared), redisState(user.url, shared)]);
    const told: string[] = [];
    a.switches.watch((_name, on) => told.push(`a ${on}`));
    b.switches.watch((_name, on) => told.push(`b ${on}`));
    // The SET goes through, the PUBLISH is refused: Redis discards the whole transaction (EXECABORT).
    await redis.command('ACL', 'SETUSER', user.name, '-publish');
    await expect(a.switches.set('paused', true)).rejects.toThrow(new RegExp(UNREACHABLE.source + 'EXECABORT'));
    await new Promise((r) => setTimeout(r, 50));
    expect(told).toEqual([]);
    expect(await a.switches.get('paused')).toBe(false);
    expect(await b.switches.get('paused')).toBe(false);
    await Promise.all([a.close(), b.close()]);
  });

  it('a MULTI whose commands fail inside EXEC (a key of the wrong type) is refused, never reported done', async () => {
    const opts = options();
    const state = await redisState(redis.url, opts);
    const key = (name: string) => `${opts.keyPrefix}${name}`;
    // Approvals: the request is stored but the pending list is not a sorted set.
    await redis.command('SET', key('approvals:pending'), 'not a sorted set');
    await expect(state.approvals.add(pending('p1'))).rejects.toThrow(new RegExp(UNREACHABLE.source + 'WRONGTYPE'));
    // Grants: the agent and tool's grants are not a hash.
    await redis.command('SET', key('grants:["alice","t"]'), 'not a hash');
    await expect(state.approvals.addGrant({ agent: 'alice', tool: 't', scope: 'always', definitionHash: 'd' })).rejects.toThrow(new RegExp(UNREACHABLE.source + 'WRONGTYPE'));
    // A session's end: its grant's hash was replaced by a string, so taking the grant back fails.
    await state.approvals.addGrant({ agent: 'alice', tool: 'u', scope: 'session', session: 's9', definitionHash: 'd' });
    await redis.command('SET', key('grants:["alice","u"]'), 'not a hash');
    await expect(state.approvals.endSession('s9')).rejects.toThrow(new RegExp(UNREACHABLE.source + 'WRONGTYPE'));
    // An operator's label reset: the identity marks are not a hash.
    await redis.command('SET', key('labels:marks'), 'not a hash');
    await expect(state.labels.reset({ agent: 'alice' }, [])).rejects.toThrow(new RegExp(UNREACHABLE.source + 'WRONGTYPE'));
    await state.close();
  });
});
