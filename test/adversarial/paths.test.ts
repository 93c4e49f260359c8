import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecureWorld, textOf, type SecureWorld } from '../helpers/secure-gateway.js';

let world: SecureWorld;
let alice: Client;
beforeAll(async () => {
  world = await startSecureWorld();
  alice = await world.connect(world.tokens.alice);
});
afterAll(async () => {
  await alice?.close();
  await world?.stop();
});

const read = (path: string) => alice.callTool({ name: 'files__read_text_file', arguments: { path } });

describe('path rules cannot be walked around', () => {
  it('lets a path inside the allowed tree through (the control)', async () => {
    const result = await read(`${world.sandbox}/notes.txt`);
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('ordinary notes\n');
  });

  it('refuses an absolute path outside the allowed tree', async () => {
    const result = await read('/etc/passwd');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/paths step: path \/etc\/passwd is outside the allowed paths/);
  });

  it('refuses ../ traversal, plain, percent-encoded, double-encoded and in full-width Unicode', async () => {
    for (const attempt of [
      `${world.sandbox}/../../../etc/passwd`,
      `${world.sandbox}/%2e%2e/%2e%2e/%2e%2e/etc/passwd`,
      `${world.sandbox}/%252e%252e/%252e%252e/%252e%252e/etc/passwd`,
      `${world.sandbox}/．．／．．／．．／etc/passwd`,
      `file://${world.sandbox}/../../../etc/passwd`,
    ]) {
      const result = await read(attempt);
      expect(result.isError, attempt).toBe(true);
      expect(textOf(result), attempt).toMatch(/path \/etc\/passwd is outside the allowed paths/);
    }
  });

  it('refuses a symlink that leads out of the tree', async () => {
    const result = await read(`${world.sandbox}/etc-link/passwd`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/path \/etc\/passwd is outside/);
  });

  it('lets deny win over allow inside the tree', async () => {
    const result = await read(`${world.sandbox}/private/diary.txt`);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/private\/diary\.txt is denied/);
  });

  it('checks every path of a multi-path tool, and hidden ones by key name', async () => {
    const result = await alice.callTool({ name: 'files__read_multiple_files', arguments: { paths: [`${world.sandbox}/notes.txt`, '/etc/hostname'] } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/\/etc\/hostname is outside/);
  });

  it('sends the checked, canonical path to the server', async () => {
    // Written with a detour; the server must receive (and answer for) the canonical form.
    const result = await alice.callTool({ name: 'files__get_file_info', arguments: { path: `${world.sandbox}/trusted/../notes.txt` } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/size/i);
  });
});

describe('a path built to make the check slow', () => {
  it('refuses a 30,000-level path at once, naming the cap, while another client is served', async () => {
    const bob = await world.connect(world.tokens.bob);
    const deep = `${world.sandbox}${'/x'.repeat(30_000)}`;
    const [attack, ordinary] = await Promise.all([read(deep), bob.callTool({ name: 'files__read_text_file', arguments: { path: `${world.sandbox}/notes.txt` } })]);
    expect(attack.isError).toBe(true);
    expect(textOf(attack)).toMatch(/paths step: path argument path cannot be checked: path is 30\d\d\d levels deep; sluice checks paths up to 256 levels/);
    expect(textOf(ordinary)).toBe('ordinary notes\n');
    await bob.close();
  });
});
