/**
 * Every message that crosses sluice is checked, not only tools/call, resources/read and prompts/get as a
 * client names them: a stateless retry cannot resume another call than the one it names; a client's answer
 * to an upstream's question is data going to that upstream; what an upstream sends on its own (log lines,
 * progress, sampling requests) passes the filters and raises the label; prompts, completions and resource
 * URIs carry data out and are held to information flow and the URL rules; `_meta` and extra params are
 * scanned; what the method table does not know is refused or dropped and counted. The fixture server
 * (test/fixtures/leaky-server.mjs) tries each of these.
 */
import type { Client } from '@modelcontextprotocol/client';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { connectWithToken, postRaw } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING, ROOT } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

const KEY = 'AKIAIOSFODNN7EXAMPLE';
let gw: TestGateway;
let broken: Server;
const tokens: Record<string, string> = {};

/**
 * A Streamable HTTP upstream (JSON answers, no sessions) that negotiates and lists properly, then fails every
 * call and read with an HTTP 500 whose body carries a cloud key: the text of a transport failure is the
 * upstream's words too.
 */
function startBrokenHttpUpstream(): Promise<string> {
  broken = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const m = JSON.parse(body) as { id?: number; method: string };
      if (m.id === undefined) return void res.writeHead(202).end();
      const answer = (result: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
      if (m.method === 'initialize') return answer({ protocolVersion: '2025-06-18', capabilities: { tools: {}, resources: {} }, serverInfo: { name: 'broken', version: '1' } });
      if (m.method === 'tools/list') return answer({ tools: [{ name: 'boom', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }] });
      if (m.method === 'resources/list') return answer({ resources: [] });
      if (m.method === 'resources/templates/list') return answer({ resourceTemplates: [{ uriTemplate: 'boom://{x}', name: 'boom' }] });
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`internal error: could not use ${KEY}`);
    });
  });
  return new Promise((resolve) => broken.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(broken.address() as AddressInfo).port}/mcp`)));
}
const decisions: DecisionEvent[] = [];

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-every-message-'));
  const brokenUrl = await startBrokenHttpUpstream();
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  mallory: { role: dev }
  stateless: { role: dev }
  stateless2: { role: dev }
  carol: { role: dev }
  dave: { role: dev }
  erin: { role: dev }
  frank: { role: dev }
roles:
  dev:
    default: allow
    filters: { secret: redact }
mcpServers:
  leaky:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/leaky-server.mjs'))}]
    tools:
      read_secret: { label: { confidentiality: secret } }
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  broken:
    type: http
    url: ${brokenUrl}
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  for (const agent of ['mallory', 'stateless', 'stateless2', 'carol', 'dave', 'erin', 'frank']) tokens[agent] = store.create(agent).token;
  gw.gateway.onDecision((e) => decisions.push(e));
});
afterAll(async () => {
  await gw?.stop();
  broken?.close();
});

const connect = (agent: string, capabilities?: Record<string, unknown>): Promise<Client> => connectWithToken(gw.url, tokens[agent], `every-message-${agent}`, capabilities);
const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

/** One stateless (2026-07-28) request, raw: what an SDK would never send (a retry under another name). */
async function stateless(agent: string, method: string, params: Record<string, unknown>): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } };
  const headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, authorization: `Bearer ${tokens[agent]}` };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  const res = await postRaw(gw.url, JSON.stringify(body), headers);
  return res.json() as { result?: any; error?: { code: number; message: string } };
}

describe('a stateless retry resumes only the call it was issued for, checked again', () => {
  it('cannot resume a parked call under another tool\'s name after the identity read a secret', async () => {
    const first = await stateless('stateless', 'tools/call', { name: 'leaky__ask', arguments: {} });
    expect(first.result?.resultType).toBe('input_required');
    const state = first.result.requestState as string;
    const key = Object.keys(first.result.inputRequests)[0];
    // Now the identity reads a secret (its mark rises), and retries under a harmless read tool's name.
    expect(text((await stateless('stateless', 'tools/call', { name: 'leaky__read_secret', arguments: {} })).result)).toContain('[REDACTED');
    const swapped = await stateless('stateless', 'tools/call', { name: 'leaky__peek', arguments: {}, requestState: state, inputResponses: { [key]: { action: 'accept', content: { text: 'what I read' } } } });
    expect(swapped.error?.message).toMatch(/issued for another call/);
    // Under its own name the whole pipeline runs again, with the label the identity has now.
    const same = await stateless('stateless', 'tools/call', { name: 'leaky__ask', arguments: {}, requestState: state, inputResponses: { [key]: { action: 'accept', content: { text: 'what I read' } } } });
    expect(text(same.result)).toMatch(/refused this call at the information-flow step: the session holds secret data/);
  });

  it('cannot resume it with other arguments either', async () => {
    const first = await stateless('stateless2', 'tools/call', { name: 'leaky__ask', arguments: {} });
    const state = first.result.requestState as string;
    const other = await stateless('stateless2', 'tools/call', { name: 'leaky__ask', arguments: { extra: 1 }, requestState: state, inputResponses: {} });
    expect(other.error?.message).toMatch(/issued for another call/);
    // The call it names is still parked: the real retry finishes it (the question unanswered).
    const finished = await stateless('stateless2', 'tools/call', { name: 'leaky__ask', arguments: {}, requestState: state, inputResponses: {} });
    expect(text(finished.result)).toMatch(/^answered: \{"error"/);
  });

  it('checks the answers a retry carries as outgoing data', async () => {
    const first = await stateless('stateless2', 'tools/call', { name: 'leaky__ask', arguments: {} });
    const key = Object.keys(first.result.inputRequests)[0];
    const retry = await stateless('stateless2', 'tools/call', { name: 'leaky__ask', arguments: {}, requestState: first.result.requestState, inputResponses: { [key]: { action: 'accept', content: { text: `here: ${KEY}` } } } });
    expect(text(retry.result)).toMatch(/information-flow step: the session holds secret data and leaky__ask is cleared for public only/);
  });
});

describe('a legacy client\'s answer to an upstream\'s question is data going to that upstream', () => {
  it('an elicitation answer carrying a secret does not reach an open-world server', async () => {
    const c = await connect('carol', { elicitation: {} });
    c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { text: `the key is ${KEY}` } }));
    const r = await c.callTool({ name: 'leaky__ask', arguments: {} });
    expect(text(r)).not.toContain(KEY);
    expect(text(r)).toMatch(/sluice refused the client's answer to elicitation\/create at the information-flow step/);
    expect(decisions.some((d) => d.method === 'elicitation/create' && d.outcome === 'deny' && d.step === 'information-flow')).toBe(true);
    await c.close();
  });

  it('an ordinary answer goes through, and the exchange is recorded', async () => {
    const c = await connect('carol', { elicitation: {} });
    c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { text: 'nothing special' } }));
    expect(text(await c.callTool({ name: 'leaky__ask', arguments: {} }))).toContain('nothing special');
    expect(decisions.some((d) => d.method === 'elicitation/create' && d.outcome === 'allow' && d.agent === 'carol')).toBe(true);
    await c.close();
  });
});

describe('what an upstream sends on its own passes the filters', () => {
  it('redacts a secret in a log line and in a progress message, as in a result', async () => {
    const c = await connect('dave');
    const logs: string[] = [];
    c.setNotificationHandler('notifications/message', (n) => void logs.push(JSON.stringify(n.params)));
    await c.setLoggingLevel('debug');
    const progress: string[] = [];
    const r = await c.callTool({ name: 'leaky__chatty', arguments: {} }, { onprogress: (p) => void progress.push(String(p.message)) });
    expect(text(r)).toBe('done');
    await waitFor(() => logs.length > 0, 3000, 'the log line');
    expect(logs.join()).not.toContain(KEY);
    expect(logs.join()).toContain('[REDACTED:aws-access-key-id]');
    expect(progress).toEqual(['using [REDACTED:aws-access-key-id]']);
    await c.close();
  });

  it('redacts a secret in a sampling request before the client\'s model sees it', async () => {
    const c = await connect('erin', { sampling: {} });
    let seen = '';
    c.setRequestHandler('sampling/createMessage', async (req) => {
      seen = JSON.stringify(req.params.messages);
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'test' };
    });
    expect(text(await c.callTool({ name: 'leaky__sample', arguments: {} }))).toContain('model said');
    expect(seen).toContain('summarise [REDACTED:aws-access-key-id]');
    expect(seen).not.toContain(KEY);
    await c.close();
  });

  it('redacts a secret in an error answer, as in a result', async () => {
    const c = await connect('erin');
    const err = await c.callTool({ name: 'leaky__fail_secret', arguments: {} }).then(
      () => undefined,
      (e: Error & { data?: unknown }) => e,
    );
    expect(err?.message).toContain('could not log in with [REDACTED:aws-access-key-id]');
    expect(JSON.stringify(err?.data ?? {})).not.toContain(KEY);
    expect(err?.message).not.toContain(KEY);
    await c.close();
  });

  it('redacts a secret in the text of an HTTP upstream\'s failure, in a tool result and in a read\'s error', async () => {
    const c = await connect('erin');
    const r = await c.callTool({ name: 'broken__boom', arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('[REDACTED:aws-access-key-id]');
    expect(text(r)).not.toContain(KEY);
    const err = await c.readResource({ uri: 'boom://x' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain('[REDACTED:aws-access-key-id]');
    expect(err?.message).not.toContain(KEY);
    await c.close();
  });

  it('drops and counts a notification, and refuses a request, that no MCP revision has', async () => {
    const c = await connect('frank');
    const heard: string[] = [];
    c.fallbackNotificationHandler = async (n) => void heard.push(n.method);
    const before = gw.gateway.upstreams.find((u) => u.name === 'leaky')!.dropped;
    const r = await c.callTool({ name: 'leaky__noise', arguments: {} });
    expect(text(r)).toMatch(/evil\/ask got: \{"error":\{"code":-32601,"message":"Method not found: evil\/ask"\}\}/);
    expect(heard).not.toContain('notifications/evil');
    expect(gw.gateway.upstreams.find((u) => u.name === 'leaky')!.dropped).toBe(before + 2);
    await c.close();
  });
});

describe('prompts, completions and resource URIs carry data out', () => {
  async function holdingSecret(): Promise<Client> {
    const c = await connect('mallory');
    expect(text(await c.callTool({ name: 'leaky__read_secret', arguments: {} }))).toContain('[REDACTED');
    return c;
  }

  it('a session holding a secret may not pass arguments to a prompt, type into a completion, or read a URI built for a host', async () => {
    const c = await holdingSecret();
    await expect(c.getPrompt({ name: 'leaky__brief', arguments: { topic: 'x' } })).rejects.toThrow(/information-flow step: the session holds secret data/);
    await expect(c.complete({ ref: { type: 'ref/prompt', name: 'leaky__brief' }, argument: { name: 'topic', value: 'x' } })).rejects.toThrow(/information-flow step/);
    await expect(c.readResource({ uri: 'https://example.com/whatever-i-read' })).rejects.toThrow(/information-flow step/);
    // A URI of the server's own scheme, fetched by nobody, carries nothing out.
    expect((await c.readResource({ uri: 'note://today' })).contents[0]).toMatchObject({ text: 'read note://today' });
    const recorded = decisions.filter((d) => d.agent === 'mallory' && d.step === 'information-flow').map((d) => d.method);
    expect(recorded).toEqual(expect.arrayContaining(['prompts/get', 'completion/complete', 'resources/read']));
    await c.close();
  });

  it('applies the URL rules to a resource URI, a prompt\'s arguments and what a completion is sent', async () => {
    const c = await connect('frank');
    await expect(c.readResource({ uri: 'https://169.254.169.254/latest/meta-data' })).rejects.toThrow(/urls step: URL .* points at a cloud metadata host/);
    await expect(c.getPrompt({ name: 'leaky__brief', arguments: { topic: 'http://127.0.0.1:22/' } })).rejects.toThrow(/urls step/);
    await expect(c.complete({ ref: { type: 'ref/prompt', name: 'leaky__brief' }, argument: { name: 'topic', value: 'http://10.0.0.1/' } })).rejects.toThrow(/urls step/);
    expect((await c.complete({ ref: { type: 'ref/prompt', name: 'leaky__brief' }, argument: { name: 'topic', value: 'wea' } })).completion.values).toEqual(['wea-done']);
    await c.close();
  });

  it('records prompts and completions with their arguments', async () => {
    const c = await connect('frank');
    await c.getPrompt({ name: 'leaky__brief', arguments: { topic: 'weather' } });
    expect(decisions.filter((d) => d.method === 'prompts/get').at(-1)).toMatchObject({ agent: 'frank', outcome: 'allow', arguments: { topic: 'weather' } });
    await c.complete({ ref: { type: 'ref/prompt', name: 'everything__completable-prompt' }, argument: { name: 'department', value: 'Eng' } });
    expect(decisions.filter((d) => d.method === 'completion/complete').at(-1)).toMatchObject({ agent: 'frank', outcome: 'allow', upstream: 'everything', arguments: { argument: { name: 'department', value: 'Eng' } } });
    await c.close();
  });

  it('holds completions and subscriptions to the pause', async () => {
    const c = await connect('frank');
    await gw.gateway.state.switches.set('paused', true);
    try {
      await expect(c.complete({ ref: { type: 'ref/prompt', name: 'leaky__brief' }, argument: { name: 'topic', value: 'x' } })).rejects.toThrow(/paused/);
      await expect(c.subscribeResource({ uri: 'demo://resource/static/document/architecture.md' })).rejects.toThrow(/paused/);
    } finally {
      await gw.gateway.state.switches.set('paused', false);
    }
    await c.close();
  });
});

describe('everything a request forwards is scanned, not only its arguments', () => {
  it('a secret in _meta or in an extra params field does not go out to an open-world tool', async () => {
    const c = await connect('frank');
    await expect(c.request({ method: 'tools/call', params: { name: 'leaky__ask', arguments: {}, _meta: { note: `k=${KEY}` } } } as never)).resolves.toMatchObject({
      content: [{ text: expect.stringMatching(/information-flow step: the session holds secret data/) }],
    });
    await expect(c.request({ method: 'tools/call', params: { name: 'leaky__ask', arguments: {}, context: { note: KEY } } } as never)).resolves.toMatchObject({
      content: [{ text: expect.stringMatching(/information-flow step/) }],
    });
    await c.close();
  });
});
