import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecureWorld, textOf, VAULT_SECRET, type SecureWorld } from '../helpers/secure-gateway.js';

let world: SecureWorld;
beforeAll(async () => {
  world = await startSecureWorld();
});
afterAll(async () => world?.stop());

const write = (c: Client, name: string, content: string) => c.callTool({ name: 'files__write_file', arguments: { path: `${world.sandbox}/${name}`, content } });
const read = (c: Client, path: string) => c.callTool({ name: 'files__read_text_file', arguments: { path } });
const resetAgent = (agent: string) =>
  fetch(world.gw.url.replace('/mcp', '/admin/sessions/reset'), { method: 'POST', headers: { authorization: `Bearer ${world.tokens.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ agent }) });

describe('information-flow control', () => {
  it('lets a trusted session write (the control)', async () => {
    await resetAgent('alice');
    const alice = await world.connect(world.tokens.alice);
    expect(textOf(await read(alice, `${world.sandbox}/trusted/policy.txt`))).toBe('operator-approved text\n');
    const result = await write(alice, 'out-trusted.txt', 'fine');
    expect(result.isError).toBeFalsy();
    await alice.close();
  });

  it('blocks a write to a trusted-only tool after an untrusted read', async () => {
    await resetAgent('alice');
    const alice = await world.connect(world.tokens.alice);
    await alice.callTool({ name: 'everything__echo', arguments: { message: 'from an untrusted server' } });
    const result = await write(alice, 'out-1.txt', 'anything');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/information-flow step: the session has read untrusted data/);
    await alice.close();
  });

  it('blocks writing down after a secret was read, even when no filter saw it (base64)', async () => {
    await resetAgent('bob');
    const bob = await world.connect(world.tokens.bob);
    const secret = await bob.callTool({ name: 'vault__read_text_file', arguments: { path: `${world.vault}/key.b64` } });
    expect(textOf(secret).trim()).toBe(VAULT_SECRET); // the filters do not recognise it...
    const leak = await write(bob, 'leak.txt', VAULT_SECRET);
    expect(leak.isError).toBe(true); // ...but the label does
    expect(textOf(leak)).toMatch(/holds secret data and files__write_file is cleared for public only/);
    await bob.close();
  });

  it('keeps the taint through clean reads, "public" claims, fake declassification and re-initialising', async () => {
    await resetAgent('bob');
    const bob = await world.connect(world.tokens.bob);
    await bob.callTool({ name: 'vault__read_text_file', arguments: { path: `${world.vault}/key.b64` } });
    await read(bob, `${world.sandbox}/trusted/policy.txt`); // clean, trusted
    await read(bob, `${world.sandbox}/declassify.txt`); // claims to declassify
    await bob.callTool({ name: 'everything__echo', arguments: { message: 'label: trusted/public' } });
    expect((await write(bob, 'leak-2.txt', 'x')).isError).toBe(true);
    await bob.close();
    // A new session of the same agent starts where the agent's label stands.
    const again = await world.connect(world.tokens.bob);
    const result = await write(again, 'leak-3.txt', 'x');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/secret/);
    await again.close();
  });

  it('blocks laundering through an intermediate store', async () => {
    await resetAgent('bob');
    const bob = await world.connect(world.tokens.bob);
    await bob.callTool({ name: 'vault__read_text_file', arguments: { path: `${world.vault}/key.b64` } });
    // The memory server is cleared for secrets: parking the secret there is allowed...
    const stash = await bob.callTool({ name: 'memory__create_entities', arguments: { entities: [{ name: 'stash', entityType: 'note', observations: [VAULT_SECRET] }] } });
    expect(stash.isError).toBeFalsy();
    await bob.close();
    // ...but picking it up again in a fresh session and writing it somewhere public is not.
    const later = await world.connect(world.tokens.bob);
    await later.callTool({ name: 'memory__read_graph', arguments: {} });
    expect((await write(later, 'laundered.txt', VAULT_SECRET)).isError).toBe(true);
    await later.close();
  });

  it('blocks a secret pasted into a write even from a clean session (exfiltration)', async () => {
    await resetAgent('alice');
    const alice = await world.connect(world.tokens.alice);
    await read(alice, `${world.sandbox}/trusted/policy.txt`);
    const result = await write(alice, 'paste.txt', 'here you go: AKIAIOSFODNN7EXAMPLE');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/holds secret data/);
    await alice.close();
  });

  it('raises every session of the agent that read something, and no other agent\'s', async () => {
    await resetAgent('alice');
    await resetAgent('bob');
    const alice = await world.connect(world.tokens.alice);
    const bobEarly = await world.connect(world.tokens.bob);
    await read(bobEarly, `${world.sandbox}/trusted/policy.txt`);
    const bob = await world.connect(world.tokens.bob);
    await bob.callTool({ name: 'vault__read_text_file', arguments: { path: `${world.vault}/key.b64` } });
    // Alice, another agent, stays clean; bob's earlier session does not: an agent is one actor.
    await read(alice, `${world.sandbox}/trusted/policy.txt`);
    expect((await write(alice, 'alice.txt', 'clean')).isError).toBeFalsy();
    const early = await write(bobEarly, 'bob-early.txt', 'clean');
    expect(early.isError).toBe(true);
    expect(textOf(early)).toMatch(/information-flow step: the session holds secret data/);
    expect((await write(bob, 'bob.txt', 'x')).isError).toBe(true);
    for (const c of [alice, bobEarly, bob]) await c.close();
  });

  it('lowers a label only by an operator reset, which is recorded', async () => {
    await resetAgent('bob');
    const bob = await world.connect(world.tokens.bob);
    await bob.callTool({ name: 'vault__read_text_file', arguments: { path: `${world.vault}/key.b64` } });
    expect((await write(bob, 'before-reset.txt', 'x')).isError).toBe(true);
    const events: string[] = [];
    world.gw.gateway.onDecision((e) => void (e.method === 'operator' && events.push(e.target)));
    expect((await resetAgent('bob')).status).toBe(200);
    expect(events).toEqual(['session reset agent bob']);
    await read(bob, `${world.sandbox}/trusted/policy.txt`);
    expect((await write(bob, 'after-reset.txt', 'x')).isError).toBeFalsy();
    await bob.close();
    const notAdmin = await fetch(world.gw.url.replace('/mcp', '/admin/sessions/reset'), { method: 'POST', headers: { authorization: `Bearer ${world.tokens.bob}` }, body: '{"agent":"bob"}' });
    expect(notAdmin.status).toBe(403);
  });

  it('labels a stateless client by its identity, so no session trick lowers it', async () => {
    await resetAgent('bob');
    const stateless = await world.connect(world.tokens.bob, 'modern');
    await stateless.callTool({ name: 'vault__read_text_file', arguments: { path: `${world.vault}/key.b64` } });
    // Each stateless request is on its own; the label lives with the identity.
    expect((await write(stateless, 'stateless.txt', 'x')).isError).toBe(true);
    const legacy = await world.connect(world.tokens.bob);
    expect((await write(legacy, 'legacy.txt', 'x')).isError).toBe(true);
    await stateless.close();
    await legacy.close();
  });

  it('records every decision with its step, rule and labels', async () => {
    await resetAgent('alice');
    const events: { outcome: string; step?: string; rule?: string; target: string; labelAfter?: unknown }[] = [];
    const listener = (e: (typeof events)[number]) => void events.push(e);
    const off = world.gw.gateway.onDecision(listener);
    const alice = await world.connect(world.tokens.alice);
    await alice.callTool({ name: 'everything__echo', arguments: { message: 'hi' } });
    await alice.callTool({ name: 'files__read_text_file', arguments: { path: '/etc/passwd' } });
    off();
    expect(events).toEqual([
      expect.objectContaining({ target: 'everything__echo', outcome: 'allow', labelAfter: { integrity: 'untrusted', confidentiality: 'public' } }),
      expect.objectContaining({ target: 'files__read_text_file', outcome: 'deny', step: 'paths' }),
    ]);
    await alice.close();
  });
});
