import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/chain.js';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { startGatewayFromFile, type TestGateway } from '../helpers/gateway.js';
import { postRaw } from '../helpers/clients.js';
import { EVERYTHING } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

/**
 * Refusals that used to stop before the chokepoint — unknown and look-alike names, bad tokens, arguments too
 * deep to serialise — are decisions like any other: they appear in `sluice audit export`, and the log verifies,
 * whatever a name holds: no request can make `sluice audit verify` report tampering.
 */
let gw: TestGateway;
let config: string;
let token: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-refusals-'));
  config = writeConfig(
    dir,
    `listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(dir, 'data'))}
agents:
  alice: { role: dev }
roles:
  dev:
    default: allow
    tools: { "everything__get-env": deny }
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`,
  );
  gw = await startGatewayFromFile(config);
  token = new FileTokenStore(gw.gateway.config.security.tokensFile).create('alice').token;
});
afterAll(async () => gw?.stop());

async function exported(): Promise<AuditRecord[]> {
  await gw.gateway.audit!.settle();
  const out = await runSluice(['audit', 'export', '-c', config]);
  expect(out.code).toBe(0);
  return out.stdout.trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);
}

/** A legacy session opened with alice's token; returns its id. */
async function session(): Promise<string> {
  const init = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }), { authorization: `Bearer ${token}` });
  const id = init.headers.get('mcp-session-id');
  if (!id) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  return id;
}

/** A request from 127.0.0.2 (a source address of its own); resolves with the status. */
function knock(pathname: string, headers: Record<string, string>, body = '{}'): Promise<number> {
  const url = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, path: pathname, method: 'POST', localAddress: '127.0.0.2', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const call = (sessionId: string, body: string) => postRaw(gw.url, body, { 'mcp-session-id': sessionId, authorization: `Bearer ${token}` });

/** A request whose params are JSON text written by hand: escapes JSON.stringify would never write go in as they are. */
const send = (sessionId: string, method: string, params: string) => call(sessionId, `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`);

// Each is JSON text for a string, as it appears in the request body.
const ODD = {
  'a lone high surrogate': String.raw`"x\ud800y"`,
  'a lone low surrogate': String.raw`"x\udc00y"`,
  'a high surrogate at the end': String.raw`"everything__echo\ud83d"`,
  'swapped surrogates': String.raw`"x\ude00\ud83dy"`,
  'a NUL': String.raw`"every\u0000thing__echo"`,
  'a noncharacter (U+FFFF)': String.raw`"x\uffffy"`,
  'an unassigned code point (U+0378)': String.raw`"x\u0378y"`,
  'terminal escapes': String.raw`"x\u001b[2K\ry"`,
  'a huge name': String.raw`"h${'\u00e9'.repeat(100_000)}\ud800"`,
} as const;

describe('refusals in the audit log', () => {
  it('records unknown and look-alike tool names as sent, made printable, and still answers -32602', async () => {
    const id = await session();
    const names = ['Everything__get-env', 'everything__get\u2011env', 'everythіng__echo' /* Cyrillic і */, '__proto__', 'everything__echo\u202e'];
    for (const name of names) {
      const res = await call(id, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }));
      expect((res.json() as { error: { code: number } }).error.code).toBe(-32602);
    }
    const records = await exported();
    const resolve = records.filter((r) => r.method === 'tools/call' && r.step === 'resolve');
    expect(resolve.map((r) => r.target)).toEqual(expect.arrayContaining(['Everything__get-env', 'everything__get\u2011env', 'everythіng__echo', '__proto__', 'everything__echo\\u{202e}']));
    expect(resolve.every((r) => r.outcome === 'deny' && r.agent === 'alice')).toBe(true);
  });

  it('keeps the log verifiable for names with lone surrogates, NUL, U+FFFF or 100,000 characters, sent as raw JSON, and records them printable', async () => {
    const id = await session();
    for (const [what, name] of Object.entries(ODD)) {
      const called = await send(id, 'tools/call', `{"name":${name},"arguments":{}}`);
      expect(called.status, what).toBe(200);
      expect((called.json() as { error?: { code: number } }).error?.code, what).toBe(-32602);
      for (const other of [await send(id, 'prompts/get', `{"name":${name}}`), await send(id, 'resources/read', `{"uri":"file:///${name.slice(1)}}`)]) {
        expect((other.json() as { error?: { code: number } }).error?.code, what).toBeLessThan(0);
      }
    }
    // The session still works.
    const echo = await send(id, 'tools/call', '{"name":"everything__echo","arguments":{"message":"still here"}}');
    expect(echo.text).toContain('still here');
    const verify = await runSluice(['audit', 'verify', '-c', config]);
    expect(verify.stdout).toMatch(/^OK: \d+ records verified/);
    expect(verify.code).toBe(0);

    const targets = (await exported()).filter((r) => r.method === 'tools/call').map((r) => r.target);
    expect(targets).toEqual(
      expect.arrayContaining(['x\\u{d800}y', 'x\\u{dc00}y', 'everything__echo\\u{d83d}', 'x\\u{de00}\\u{d83d}y', 'every\\u{0}thing__echo', 'x\\u{ffff}y', 'x\\u{378}y', 'x\\u{1b}[2K\\u{d}y']),
    );
    // A huge name is cut (with its length said), and the surrogate at its end is past the cut.
    expect(targets).toContainEqual(expect.stringMatching(/^h\u00e9{255}… \(100002 characters\)$/));
    // Nothing recorded as a target holds a code point a terminal or a UTF-8 column would change.
    for (const t of targets) expect(t).not.toMatch(/[\p{Cc}\p{Cs}\p{Cn}]/u);
  });

  it('answers an unknown name with -32602 after recording it', async () => {
    const res = await call(await session(), JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope__nothing', arguments: {} } }));
    expect((res.json() as { error: { code: number; message: string } }).error).toEqual({ code: -32602, message: 'Unknown tool: nope__nothing' });
    expect((await exported()).some((r) => r.target === 'nope__nothing' && r.step === 'resolve')).toBe(true);
  });

  it('records refused logins, coalesced per source, with a token fingerprint and never the token', async () => {
    const before = (await exported()).length;
    const bad = 'slc_guess_guess_guess_guess';
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => postRaw(gw.url, '{}', { authorization: `Bearer ${bad}${i}` }).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([401]));
    await new Promise((r) => setTimeout(r, 1300)); // the coalescing window closes
    const logins = (await exported()).slice(before).filter((r) => r.method === 'authenticate');
    expect(logins.length).toBeGreaterThanOrEqual(2);
    expect(logins.length).toBeLessThanOrEqual(3); // 60 refusals, about one record per second
    expect(logins[0]).toMatchObject({ outcome: 'deny', step: 'authenticate', target: '/mcp', agent: '(unauthenticated)', reason: 'invalid token' });
    expect(logins[0].client).toMatch(/^(::ffff:)?127\.0\.0\.1 sha256:[0-9a-f]{12}$/);
    expect(logins.some((r) => /59 more refused logins/.test(r.reason ?? ''))).toBe(true);
    expect(JSON.stringify(logins)).not.toContain(bad);
  });

  it('keeps every kind of refusal in a coalesced record: counts per reason, and a record per path', async () => {
    // From an address of its own (127.0.0.2), so no other test's window is open for it.
    const before = (await exported()).length;
    const first = await knock('/mcp', { authorization: 'Bearer slc_guess_first' });
    // Within the same second: a valid agent token trying the operator's login (a refusal that matters more than
    // a guess), a malformed header, then a run of guessed tokens.
    const statuses = [
      await knock('/admin/login', { 'content-type': 'application/json' }, JSON.stringify({ token })),
      await knock('/mcp', { authorization: 'Basic YWxpY2U6cHc=' }),
      ...(await Promise.all(Array.from({ length: 20 }, (_, i) => knock('/mcp', { authorization: `Bearer slc_guess_${i}` })))),
    ];
    expect([first, ...statuses].every((s) => s === 401)).toBe(true);
    await new Promise((r) => setTimeout(r, 1300)); // the coalescing window closes
    const logins = (await exported()).slice(before).filter((r) => r.method === 'authenticate' && r.client?.startsWith('127.0.0.2'));
    expect(logins[0]).toMatchObject({ target: '/mcp', reason: 'invalid token' });
    const coalesced = logins.slice(1);
    expect(coalesced.map((r) => r.target).sort()).toEqual(['/admin/login', '/mcp']);
    expect(coalesced.find((r) => r.target === '/admin/login')?.reason).toBe('1 more refused login in 1 s: 1 × not an operator token');
    expect(coalesced.find((r) => r.target === '/mcp')?.reason).toBe('21 more refused logins in 1 s: 1 × malformed Authorization header; expected "Bearer <token>", 20 × invalid token');
  });

  it('records a refusal for 10,000-deep arguments, with a placeholder for what cannot be serialised', async () => {
    const id = await session();
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"everything__echo","arguments":{"message":"deep","nested":${deep}}}}`;
    const res = await call(id, body);
    const answer = res.json() as { result?: { isError?: boolean; content: { text: string }[] } };
    expect(answer.result?.isError).toBe(true);
    const record = (await exported()).find((r) => r.target === 'everything__echo' && r.outcome === 'deny');
    expect(record).toBeDefined();
    expect(record!.arguments).toMatch(/^\[not recorded: the value nested too deeply/);
    const verify = await runSluice(['audit', 'verify', '-c', config]);
    expect(verify.stdout).toMatch(/^OK: \d+ records verified/);
  });
});
