import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryState } from '../../src/state/memory-state.js';
import { sqliteState } from '../../src/state/sqlite-state.js';
import { stateContract } from './state.js';

stateContract('memory', async () => ({ state: memoryState() }));

stateContract('sqlite', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sluice-state-')), 'state.db');
  const key = randomBytes(32);
  return { state: sqliteState(file, key), reopen: async () => sqliteState(file, key) };
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
    // b looks for other writers at most once a millisecond (see Staleness in sqlite-state.ts).
    await new Promise((r) => setTimeout(r, 5));
    expect(await b.labels.of(holder)).toEqual({ integrity: 'trusted', confidentiality: 'secret' });
    expect(await b.labels.of({ id: 'new', agent: 'alice', stateless: true })).toEqual({ integrity: 'trusted', confidentiality: 'secret' });
    expect(await b.switches.get('paused')).toBe(true);
    await a.close();
    await b.close();
  });
});
