import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { ClientSession } from '../../src/gateway/session.js';
import { connectWithToken } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING } from '../helpers/servers.js';

/**
 * A per-session server runs at most `maxSessions` processes. One agent opening sessions must not take every
 * slot and leave the next agent with no tools and "Unknown tool": when the slots are all taken, an agent that
 * holds fewer than another takes one back from it (its least recently active, idle session, whose process
 * stops as an idle one would). A session that gets no slot is told so, never handed an empty tool list.
 */
let gw: TestGateway;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
agents:
  ann: { role: open }
  ben: { role: open }
  cat: { role: open }
roles:
  open: { default: allow }
mcpServers:
  mine:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
    mode: per-session
    maxSessions: 2
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  for (const name of ['ann', 'ben', 'cat']) tokens[name] = store.create(name).token;
});
afterAll(async () => gw?.stop());

const LIMIT = /per-session server "mine" has no free slot for this session: its 2 slots \(maxSessions\) are in use/;
const connect = (agent: string) => connectWithToken(gw.url, tokens[agent], `slots-${agent}`);
const echo = (c: Client, message: string) => c.callTool({ name: 'mine__echo', arguments: { message } });
const sessionsOf = (agent: string): ClientSession[] => [...gw.gateway.sessions.all.values()].filter((s) => s.principal?.agent === agent);
async function endAll(): Promise<void> {
  for (const s of [...gw.gateway.sessions.all.values()]) await gw.gateway.sessions.close(s);
}

describe('per-session slots shared between agents', () => {
  it('gives a second agent its own server and tools after the first took every slot, and tells the first it is at its share', async () => {
    const first = await connect('ann');
    expect((await echo(first, 'one')).content).toEqual([{ type: 'text', text: 'Echo: one' }]);
    const second = await connect('ann');
    expect((await echo(second, 'two')).content).toEqual([{ type: 'text', text: 'Echo: two' }]);

    // ann holds both slots; ben still gets a process of his own, and its tools.
    const ben = await connect('ben');
    expect((await ben.listTools()).tools.map((t) => t.name)).toContain('mine__echo');
    expect((await echo(ben, 'mine too')).content).toEqual([{ type: 'text', text: 'Echo: mine too' }]);
    expect(sessionsOf('ben')[0].ownUpstreams).toHaveLength(1);

    // ann gave up her least recently active session; a third one of hers is refused with the reason.
    await expect(connect('ann')).rejects.toThrow(LIMIT);
    // The session that gave its slot up says the same on its next request (not "Unknown tool")...
    await expect(first.listTools()).rejects.toThrow(LIMIT);
    expect((await echo(second, 'still here')).content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
    // ...and gets its server back once a slot is free.
    await gw.gateway.sessions.close(sessionsOf('ben')[0]);
    expect((await echo(first, 'back')).content).toEqual([{ type: 'text', text: 'Echo: back' }]);
    await endAll();
    await Promise.all([first.close(), second.close(), ben.close()]);
  });

  it('takes back only from an agent that holds two more than the asker, and never from a session that is busy', async () => {
    const ann = await connect('ann');
    const ben = await connect('ben');
    // One each: cat holds none, and taking one would leave its holder with fewer than cat, so nothing is taken.
    await expect(connect('cat')).rejects.toThrow(LIMIT);
    expect((await echo(ann, 'kept')).isError).toBeFalsy();
    expect((await echo(ben, 'kept')).isError).toBeFalsy();
    await endAll();

    // ann holds both slots, and both her sessions are in the middle of a call: nobody takes them away.
    const busy = [await connect('ann'), await connect('ann')];
    const calls = busy.map((c) => c.callTool({ name: 'mine__trigger-long-running-operation', arguments: { duration: 2, steps: 2 } }));
    await new Promise((r) => setTimeout(r, 300));
    await expect(connect('ben')).rejects.toThrow(/the agent holding the most slots is using every one of them/);
    for (const result of await Promise.all(calls)) expect(JSON.stringify(result.content)).toMatch(/Long running operation completed/);
    await endAll();
    await Promise.all([ann.close(), ben.close(), ...busy.map((c) => c.close())]);
  });
});
