import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRaw } from '../helpers/clients.js';
import { startSecureWorld, textOf, type SecureWorld } from '../helpers/secure-gateway.js';
import { upgradeStatus } from '../helpers/ws-client.js';

let world: SecureWorld;
beforeAll(async () => {
  world = await startSecureWorld();
});
afterAll(async () => world?.stop());

const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });


describe('identity', () => {
  it('refuses a missing, malformed or wrong token with 401, and never falls back to a default', async () => {
    expect((await postRaw(world.gw.url, init)).status).toBe(401);
    expect((await postRaw(world.gw.url, init, { authorization: 'Basic YWxpY2U6cHc=' })).status).toBe(401);
    expect((await postRaw(world.gw.url, init, { authorization: `Bearer ${world.tokens.alice}x` })).status).toBe(401);
    expect((await postRaw(world.gw.url, init, { authorization: `Bearer ${world.tokens.alice}` })).status).toBe(200);
  });

  it('refuses a WebSocket without a valid token before upgrading', async () => {
    expect(await upgradeStatus(world.gw.wsUrl, {})).toBe(401);
    expect(await upgradeStatus(world.gw.wsUrl, { authorization: 'Bearer nope' })).toBe(401);
    expect(await upgradeStatus(world.gw.wsUrl, { authorization: `Bearer ${world.tokens.alice}` })).toBe(101);
  });

  it('does not let an operator token act as an agent', async () => {
    expect((await postRaw(world.gw.url, init, { authorization: `Bearer ${world.tokens.admin}` })).status).toBe(403);
  });

  it('binds a session to the token that opened it: another agent cannot use it', async () => {
    const opened = await postRaw(world.gw.url, init, { authorization: `Bearer ${world.tokens.alice}` });
    const session = opened.headers.get('mcp-session-id')!;
    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'everything__echo', arguments: { message: 'hijack' } } });
    const hijack = await postRaw(world.gw.url, call, { authorization: `Bearer ${world.tokens.bob}`, 'mcp-session-id': session });
    expect(hijack.status).toBe(404);
    const owner = await postRaw(world.gw.url, call, { authorization: `Bearer ${world.tokens.alice}`, 'mcp-session-id': session });
    expect(owner.status).toBe(200);
  });

  it('applies every check to raw stateless requests with no initialize', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' };
    const call = (name: string, args: unknown, token?: string) =>
      postRaw(world.gw.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } }), token ? { ...headers, authorization: `Bearer ${token}` } : headers);
    expect((await call('everything__echo', { message: 'x' })).status).toBe(401);
    const outside = (await call('files__read_text_file', { path: '/etc/passwd' }, world.tokens.alice)).json() as { result: { isError: boolean; content: { text: string }[] } };
    expect(outside.result.isError).toBe(true);
    expect(outside.result.content[0].text).toMatch(/paths step/);
    const hidden = (await call('everything__get-env', {}, world.tokens.alice)).json() as { result: { isError: boolean; content: { text: string }[] } };
    expect(hidden.result.content[0].text).toMatch(/tool-rule step/);
  });
});

describe('tool rules', () => {
  let alice: Client;
  let reader: Client;
  beforeAll(async () => {
    alice = await world.connect(world.tokens.alice);
    reader = await world.connect(world.tokens.reader);
  });
  afterAll(async () => {
    await alice?.close();
    await reader?.close();
  });

  it('hides a denied tool from tools/list and refuses it when called by name anyway', async () => {
    const names = (await alice.listTools()).tools.map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).not.toContain('everything__get-env');
    const result = await alice.callTool({ name: 'everything__get-env', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/tool-rule step: role "developer" may not call everything__get-env/);
    expect(textOf(result)).not.toMatch(/PATH=/);
  });

  it('lets deny beat allow when both match', async () => {
    expect((await alice.listTools()).tools.map((t) => t.name)).not.toContain('files__move_file');
    const result = await alice.callTool({ name: 'files__move_file', arguments: { source: `${world.sandbox}/notes.txt`, destination: `${world.sandbox}/moved.txt` } });
    expect(textOf(result)).toMatch(/may not call files__move_file/);
  });

  it('holds a tool no rule names for a human (the role default), and denies it when nobody decides', async () => {
    const started = Date.now();
    const result = await alice.callTool({ name: 'vault__list_directory', arguments: { path: world.vault } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/approval denied: no decision in time/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it('matches names exactly: no case or look-alike tricks', async () => {
    for (const name of ['EVERYTHING__get-env', 'everything__get-Env', 'everything__get‐env', 'everything__get-env ']) {
      await expect(alice.callTool({ name, arguments: {} })).rejects.toThrow(/Unknown tool/);
    }
  });

  it('keeps a read-only role to read tools: write tools are hidden and refused', async () => {
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names).toContain('files__read_text_file');
    expect(names).not.toContain('files__write_file');
    const result = await reader.callTool({ name: 'files__write_file', arguments: { path: `${world.sandbox}/x.txt`, content: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/tool-rule|operation/);
  });
});
