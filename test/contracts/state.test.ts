import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryState } from '../../src/state/memory-state.js';
import { sqliteState } from '../../src/state/sqlite-state.js';
import { stateContract } from './state.js';

stateContract('memory', async () => ({ state: memoryState() }));

stateContract('sqlite', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sluice-state-')), 'state.db');
  const key = randomBytes(32);
  return { state: sqliteState(file, key), reopen: async () => sqliteState(file, key) };
});
