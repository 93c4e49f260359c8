import type { Client } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { connectWithToken } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { FILESYSTEM, ROOT } from '../helpers/servers.js';
import { decisionsFor } from '../helpers/decisions.js';

/**
 * Secrets shaped to slip past the filters: split by characters that render as nothing but that a hand-made
 * list of invisibles misses (Unicode's Default_Ignorable_Code_Point has over 4,000), and put where an image's
 * data belongs in a call's arguments, which a result scan rightly passes over as base64. In a result they are
 * redacted; in the arguments of an open-world tool, information flow refuses them; the audit log never
 * holds them in clear.
 */
const KEY = 'AKIAIOSFODNN7EXAMPLE';
/** Each way of splitting it: invisible characters a renderer shows as nothing. */
const SPLITTERS: [string, string][] = [
  ['invisible operators', '\u2061\u2062\u2063\u2064'],
  ['Hangul fillers', '\u115F\u1160\u3164\uFFA0'],
  ['variation selectors', '\uFE00\uFE0F\u{E0100}\u{E01EF}'],
  ['tag characters', '\u{E0001}\u{E0020}\u{E007F}'],
  ['Mongolian variation selectors', '\u180B\u180C\u180D\u180F'],
  ['combining grapheme joiner', '\u034F'],
];
const split = (text: string, invisibles: string) => {
  const chars = [...invisibles];
  return [...text].map((c, i) => c + chars[i % chars.length]).join('');
};
/** What a reader sees: the text without the characters that render as nothing. */
const visible = (text: string) => text.replace(/\p{Default_Ignorable_Code_Point}/gu, '');

let gw: TestGateway;
let sandbox: string;
let token: string;
const decisions: DecisionEvent[] = [];

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-invisible-'));
  sandbox = path.join(root, 'sandbox');
  mkdirSync(sandbox);
  writeFileSync(path.join(sandbox, 'keys.txt'), SPLITTERS.map(([what, inv]) => `${what}: ${split(KEY, inv)}\n`).join(''));
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  eve: { role: dev }
roles:
  dev:
    default: deny
    tools: { "files__*": allow, "web__*": allow }
    paths: { allow: [${JSON.stringify(sandbox + '/**')}] }
    filters: { secret: redact, pii: label, injection: label }
mcpServers:
  files:
    command: node
    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]
    label: { integrity: trusted }
  web:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/egress-server.mjs'))}]
    label: { integrity: trusted }
`);
  token = new FileTokenStore(gw.gateway.config.security.tokensFile).create('eve').token;
  gw.gateway.onDecision((e) => decisions.push(e));
});
afterAll(async () => gw?.stop());

const connect = (): Promise<Client> => connectWithToken(gw.url, token, 'invisible');

async function refusedByFlow(c: Client, args: Record<string, unknown>, what: string) {
  const since = decisions.length;
  const r = await c.callTool({ name: 'web__fetch', arguments: args });
  expect(r.isError, what).toBe(true);
  expect(textOf(r), what).toMatch(/refused this call at the information-flow step: the session holds secret data and web__fetch is cleared for public only/);
  expect(decisionsFor(decisions, since, { target: 'web__fetch', arguments: args }), what).toEqual([expect.objectContaining({ outcome: 'deny', step: 'information-flow' })]);
}

async function auditText(): Promise<string> {
  await gw.gateway.audit!.settle();
  return visible(JSON.stringify((await gw.gateway.audit!.store.query({ limit: 1000 }))));
}

describe('secrets split by invisible characters', () => {
  it('redacts each from a result, however it is split', async () => {
    const c = await connect();
    const text = textOf(await c.callTool({ name: 'files__read_text_file', arguments: { path: path.join(sandbox, 'keys.txt') } }));
    expect(visible(text)).not.toContain(KEY);
    expect(text.match(/\[REDACTED:aws-access-key-id\]/g)).toHaveLength(SPLITTERS.length);
    await c.close();
  });

  it('refuses each in the arguments of an open-world tool (a clean session: the arguments alone carry it)', async () => {
    const c = await connect();
    expect(textOf(await c.callTool({ name: 'web__fetch', arguments: { q: 'weather' } }))).toMatch(/got/);
    for (const [what, inv] of SPLITTERS) await refusedByFlow(c, { q: `key ${split(KEY, inv)}` }, what);
    expect(await auditText()).not.toContain(KEY);
    await c.close();
  });
});

describe('secrets in binary content of outgoing arguments', () => {
  // A real image's bytes, base64: what a client legitimately sends (the control).
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it('passes a real image through, and refuses a secret where its data belongs', async () => {
    const c = await connect();
    const image = (data: string) => ({ type: 'image', mimeType: 'image/png', data });
    expect(textOf(await c.callTool({ name: 'web__fetch', arguments: { q: 'describe', attachment: image(PNG) } }))).toMatch(/got/);
    await refusedByFlow(c, { q: 'describe', attachment: image(KEY) }, 'image data');
    await refusedByFlow(c, { q: 'listen', clip: { type: 'audio', mimeType: 'audio/wav', data: `${KEY}==` } }, 'audio data');
    await refusedByFlow(c, { q: 'store', file: { uri: 'https://example.com/notes.bin', blob: KEY } }, 'blob');
    expect(await auditText()).not.toContain(KEY);
    await c.close();
  });
});
