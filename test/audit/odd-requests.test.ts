import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/chain.js';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { postRaw } from '../helpers/clients.js';
import { startGatewayFromFile, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';

/**
 * One request must not be able to make the audit log look tampered with. A client sends names that a JS
 * string can hold but UTF-8 cannot (lone surrogates), that a database column may not keep (NUL), that are no
 * characters at all (U+FFFF) or that are huge — written as raw JSON escapes, as JSON.stringify never would —
 * and afterwards `sluice audit verify` still says the log is intact, and the record shows what was sent.
 */
let gw: TestGateway;
let config: string;
let token: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-odd-'));
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

async function session(): Promise<string> {
  const init = await postRaw(gw.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }), { authorization: `Bearer ${token}` });
  const id = init.headers.get('mcp-session-id');
  if (!id) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  return id;
}

/** Posts a JSON-RPC request whose body is written by hand: `name` goes in as the JSON text given, escapes and all. */
const send = (id: string, method: string, params: string) =>
  postRaw(gw.url, `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`, { 'mcp-session-id': id, authorization: `Bearer ${token}` });

async function exported(): Promise<AuditRecord[]> {
  await gw.gateway.audit!.settle();
  const out = await runSluice(['audit', 'export', '-c', config]);
  expect(out.code).toBe(0);
  return out.stdout.trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);
}

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

describe('odd names in requests', () => {
  it('keeps the log verifiable, whatever a name holds, and records it made printable', async () => {
    const id = await session();
    for (const [what, name] of Object.entries(ODD)) {
      const call = await send(id, 'tools/call', `{"name":${name},"arguments":{}}`);
      expect(call.status, what).toBe(200);
      expect((call.json() as { error?: { code: number } }).error?.code, what).toBe(-32602);
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
});
