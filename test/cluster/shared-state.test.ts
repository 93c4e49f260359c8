import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { EVERYTHING, ROOT } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';
import { startTestGateway } from '../helpers/gateway.js';
import { connectV2 } from '../helpers/clients.js';
import { waitFor } from '../helpers/wait.js';

/** One gateway on shared state: how it starts, refuses to start, and behaves when Redis goes away. */
let redis: RedisServer;
let postgres: PostgresServer;
let dir: string;

beforeAll(async () => {
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  dir = mkdtempSync(path.join(tmpdir(), 'sluice-shared-'));
}, 60_000);
afterAll(async () => Promise.all([redis?.stop(), postgres?.stop()]));

const yaml = (state: string, audit = '') => `listen: 127.0.0.1:0
logLevel: warn
dataDir: ${JSON.stringify(path.join(dir, 'data'))}
state: { url: ${state} }
${audit ? `audit: { url: ${JSON.stringify(audit)} }\n` : ''}auth: { required: false, anonymousAgent: anon }
agents:
  anon: { role: r }
roles:
  r: { default: allow }
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`;

describe('starting a replica on shared state', () => {
  it('refuses without SLUICE_SESSION_KEY, or with a malformed one, saying what to do', async () => {
    const config = writeConfig(dir, yaml(redis.url), 'no-key.yaml');
    const env = { ...process.env, SLUICE_SESSION_KEY: '' };
    const without = await runSluice(['serve', '--config', config], 30_000, env);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/cannot start: state\.url is set .* SLUICE_SESSION_KEY must be too: 64 hexadecimal characters, the same on every replica/);
    const bad = await runSluice(['serve', '--config', config], 30_000, { ...env, SLUICE_SESSION_KEY: 'abc' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/SLUICE_SESSION_KEY must be 64 hexadecimal characters/);
  });

  it('names the server it cannot reach — Redis or Postgres — and never the password', async () => {
    const key = randomBytes(32).toString('hex');
    const noRedis = await runSluice(['serve', '--config', writeConfig(dir, yaml('redis://user:hunter2@127.0.0.1:1/0'), 'no-redis.yaml')], 30_000, { ...process.env, SLUICE_SESSION_KEY: key });
    expect(noRedis.code).toBe(1);
    expect(noRedis.stderr).toMatch(/cannot start: cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/0/);
    expect(noRedis.stderr).not.toContain('hunter2');
    const noPostgres = await runSluice(['serve', '--config', writeConfig(dir, yaml(redis.url, 'postgres://sluice:hunter2@127.0.0.1:1/sluice'), 'no-pg.yaml')], 30_000, { ...process.env, SLUICE_SESSION_KEY: key });
    expect(noPostgres.code).toBe(1);
    expect(noPostgres.stderr).toMatch(/cannot start: .*127\.0\.0\.1:1/);
    expect(noPostgres.stderr).not.toContain('hunter2');
  });
});

describe('Redis going away under a running gateway', () => {
  it('refuses calls while it is gone (fail closed, at once, with a clear error), keeps other work alive, and serves again when it is back', async () => {
    process.env.SLUICE_SESSION_KEY = randomBytes(32).toString('hex');
    const own = await startRedis();
    const gw = await startTestGateway(yaml(own.url, postgres.url));
    try {
      const client = await connectV2(gw.url, 'legacy');
      expect((await client.callTool({ name: 'everything__echo', arguments: { message: 'up' } })).isError).toBeFalsy();
      await own.pause();
      const t0 = performance.now();
      const refused = await client.callTool({ name: 'everything__echo', arguments: { message: 'down' } }).then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      );
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(refused).not.toContain('"down"'); // the call did not run
      expect(refused).toMatch(/sluice refused this call .*the shared state \(Redis at 127\.0\.0\.1:\d+\/0\) is unreachable/);
      expect((await fetch(gw.url.replace('/mcp', '/healthz'))).status).toBe(200);
      await own.start();
      await waitFor(async () => (await client.callTool({ name: 'everything__echo', arguments: { message: 'back' } })).isError !== true, 10_000, 'calls again');
      await client.close();
    } finally {
      await gw.stop();
      await own.stop();
      delete process.env.SLUICE_SESSION_KEY;
    }
  });
});

describe('sealed legacy session ids', () => {
  it('are issued under the session key, and one forged, altered or made under another key is "not found" on any replica', async () => {
    const { isSessionId, newSessionId } = await import('../../src/state/seal.js');
    const key = randomBytes(32);
    const id = newSessionId(key);
    expect(id).toMatch(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{22}$/);
    expect(isSessionId(id, key)).toBe(true);
    expect(isSessionId(id, randomBytes(32))).toBe(false); // another deployment's key
    const [random, mac] = id.split('.');
    const flipped = `${random.slice(0, -1)}${random.endsWith('0') ? '1' : '0'}.${mac}`;
    expect(isSessionId(flipped, key)).toBe(false); // a neighbouring id under the same MAC
    expect(isSessionId(`${random}.${'A'.repeat(22)}`, key)).toBe(false);
    expect(isSessionId('0'.repeat(32), key)).toBe(false); // the old, unsealed form
    expect(isSessionId(`${id}x`, key)).toBe(false);
  });
});

describe('definition pins on shared state', () => {
  it('are the same on every replica: a quarantine and an operator\'s approval on one replica reach the other through Redis', async () => {
    process.env.SLUICE_SESSION_KEY = randomBytes(32).toString('hex');
    const rug = path.join(ROOT, 'test/fixtures/rug-server.mjs');
    const replica = (name: string) => `listen: 127.0.0.1:0
logLevel: warn
dataDir: ${JSON.stringify(path.join(dir, `pins-${name}`))}
state: { url: ${redis.url}, keyPrefix: "pins-test:" }
auth: { required: false, anonymousAgent: anon }
agents:
  anon: { role: r }
roles:
  r: { default: allow }
mcpServers:
  rug:
    command: node
    args: [${JSON.stringify(rug)}]
    env: { RUG_PULL: "0" }
`;
    const a = await startTestGateway(replica('a'));
    const b = await startTestGateway(replica('b'));
    try {
      const names = (gw: typeof a) => gw.gateway.catalog.tools.map((t) => String(t.name));
      expect(names(a)).not.toContain('rug__fetch_page');
      expect(names(b)).not.toContain('rug__fetch_page');
      // Both replicas pinned into one store: one pin per definition, not one per replica.
      expect((await b.gateway.definitions.list()).filter((p) => p.name === 'fetch_page')).toHaveLength(1);
      const { DefinitionDesk } = await import('../../src/gateway/definition-desk.js');
      await new DefinitionDesk(a.gateway).decide({ name: 'rug__fetch_page' }, true, 'admin:operator');
      expect(names(a)).toContain('rug__fetch_page');
      await waitFor(() => names(b).includes('rug__fetch_page'), 10_000, 'the approval on the other replica');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      delete process.env.SLUICE_SESSION_KEY;
    }
  }, 60_000);
});
