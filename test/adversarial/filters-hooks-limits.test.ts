import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOKS, startSecureWorld, textOf, type SecureWorld } from '../helpers/secure-gateway.js';

let world: SecureWorld;
let alice: Client;
beforeAll(async () => {
  world = await startSecureWorld(`hooks:
  - { module: ${JSON.stringify(`${HOOKS}/slow.js`)}, stage: pre, tools: "everything__get-tiny-image", timeoutMs: 200 }
  - { module: ${JSON.stringify(`${HOOKS}/throws.js`)}, stage: pre, tools: "everything__get-sum" }
  - { module: ${JSON.stringify(`${HOOKS}/rewrite.js`)}, stage: pre, tools: "everything__echo" }
  - { module: ${JSON.stringify(`${HOOKS}/throws.js`)}, stage: post, tools: "everything__get-annotated-message" }
`);
  alice = await world.connect(world.tokens.alice);
});
afterAll(async () => {
  await alice?.close();
  await world?.stop();
});

const admin = (path: string) => fetch(world.gw.url.replace('/mcp', path), { method: 'POST', headers: { authorization: `Bearer ${world.tokens.admin}` } });

describe('content filters', () => {
  it('redacts personal data written with look-alike letters', async () => {
    const result = await alice.callTool({ name: 'files__read_text_file', arguments: { path: `${world.sandbox}/contacts.txt` } });
    expect(textOf(result)).toContain('[REDACTED:email]');
    expect(textOf(result)).not.toMatch(/lice@/);
  });

  it('filters resource contents, and keeps personal data out of a prompt\'s arguments (they go to the server)', async () => {
    const card = await alice.readResource({ uri: 'fixture://contact-card' });
    const text = (card.contents[0] as { text: string }).text;
    expect(text).toContain('[REDACTED:email]');
    expect(text).toContain('[REDACTED:card-number]');
    // Prompt arguments are outgoing data: an address in them is not sent to an open-world server at all
    // (what comes back from a prompt is filtered like any content: test/unit/pipeline-reads.test.ts).
    await expect(alice.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'mail bob@example.org', state: 'CA' } })).rejects.toThrow(/information-flow step: the session holds pii data/);
  });
});

describe('hooks fail closed', () => {
  it('refuses the call when a hook times out', async () => {
    const started = Date.now();
    const result = await alice.callTool({ name: 'everything__get-tiny-image', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/pre-hook step: a pre-hook failed/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses the call when a hook throws, without passing its error text on', async () => {
    const result = await alice.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toMatch(/hunter2|internal detail/);
    const post = await alice.callTool({ name: 'everything__get-annotated-message', arguments: { messageType: 'success' } });
    expect(post.isError).toBe(true);
    expect(textOf(post)).toMatch(/post-hook/);
  });

  it('lets a hook rewrite arguments', async () => {
    const result = await alice.callTool({ name: 'everything__echo', arguments: { message: 'hi' } });
    expect(textOf(result)).toBe('Echo: [hooked] hi');
  });
});

describe('pause and rate limits cover tools, resources and prompts', () => {
  it('stops every kind of request while paused, and lets them through after resume', async () => {
    expect((await admin('/admin/pause')).status).toBe(200);
    try {
      const tool = await alice.callTool({ name: 'files__read_text_file', arguments: { path: `${world.sandbox}/notes.txt` } });
      expect(textOf(tool)).toMatch(/paused/);
      await expect(alice.readResource({ uri: 'fixture://contact-card' })).rejects.toThrow(/paused/);
      await expect(alice.getPrompt({ name: 'everything__simple-prompt', arguments: {} })).rejects.toThrow(/paused/);
    } finally {
      expect((await admin('/admin/resume')).status).toBe(200);
    }
    expect((await alice.getPrompt({ name: 'everything__simple-prompt', arguments: {} })).messages.length).toBeGreaterThan(0);
  });

  it('limits an identity\'s rate, with a retry time, across tools, resources and prompts', async () => {
    const limited = await world.connect(world.tokens.limited);
    for (let i = 0; i < 3; i++) expect((await limited.callTool({ name: 'everything__echo', arguments: { message: `${i}` } })).isError).toBeFalsy();
    const over = await limited.callTool({ name: 'everything__echo', arguments: { message: 'one too many' } });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toMatch(/rate limit exceeded; retry in \d+\.\d s/);
    await expect(limited.readResource({ uri: 'fixture://contact-card' })).rejects.toThrow(/rate limit/);
    await expect(limited.getPrompt({ name: 'everything__simple-prompt', arguments: {} })).rejects.toThrow(/rate limit/);
    // Another identity is not affected.
    expect((await alice.callTool({ name: 'everything__echo', arguments: { message: 'me' } })).isError).toBeFalsy();
    await limited.close();
  });
});
