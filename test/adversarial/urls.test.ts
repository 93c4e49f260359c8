import type { Client } from '@modelcontextprotocol/client';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { EVERYTHING, ROOT } from '../helpers/servers.js';
import { connectWithToken } from '../helpers/clients.js';
import { decisionsFor } from '../helpers/decisions.js';

/**
 * SSRF through tools that fetch: server-everything's gzip-file-as-resource fetches any URL it is given, and a
 * fetch-like fixture takes a URL anywhere in its arguments. However the URL spells its host, a loopback,
 * private, link-local or cloud-metadata address is refused at the `urls` step unless the role allows it by name.
 * A tool that really fetches (test/fixtures/fetch-server.mjs) shows what its URL parser reads; a loopback
 * "admin" server counts what reaches it.
 */
let gw: TestGateway;
const tokens: Record<string, string> = {};
const decisions: DecisionEvent[] = [];
let admin: Server;
let adminPort: number;
const adminHits: string[] = [];

beforeAll(async () => {
  admin = createServer((req, res) => {
    adminHits.push(req.url ?? '');
    res.end('admin page');
  });
  await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
  adminPort = (admin.address() as AddressInfo).port;
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-urls-'));
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  mallory: { role: fetcher }
  ops: { role: local }
  admin: { role: admin }
roles:
  fetcher:
    default: deny
    tools: { "everything__gzip-file-as-resource": allow, "web__fetch": allow, "net__*": allow }
    urls:
      deny: ["https://example.com/admin/**"]
  local:
    default: deny
    tools: { "web__fetch": allow }
    urls:
      allow: ["localhost:8808", "10.20.0.0/16"]
  admin:
    default: deny
    tools: { "net__*": allow }
    urls:
      allow: ["127.0.0.1:${adminPort}"]
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  web:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/egress-server.mjs'))}]
  net:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/fetch-server.mjs'))}]
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  tokens.mallory = store.create('mallory').token;
  tokens.ops = store.create('ops').token;
  tokens.admin = store.create('admin').token;
  gw.gateway.onDecision((e) => decisions.push(e));
});
afterAll(async () => {
  await gw?.stop();
  admin?.close();
});

const connect = (token: string): Promise<Client> => connectWithToken(gw.url, token, 'urls');

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}
const gzipCall = (data: string): ToolCall => ({ name: 'everything__gzip-file-as-resource', arguments: { name: 'x.gz', data, outputType: 'resource' } });
const fetchCall = (q: string): ToolCall => ({ name: 'web__fetch', arguments: { q } });
const gzip = (c: Client, data: string) => c.callTool(gzipCall(data));
const fetchIt = (c: Client, q: string) => c.callTool(fetchCall(q));

async function refusedAtUrls(c: Client, call: ToolCall, what: string, reason: RegExp) {
  const since = decisions.length;
  const r = await c.callTool(call);
  expect(r.isError, what).toBe(true);
  expect(textOf(r), what).toMatch(/sluice refused this call at the urls step/);
  expect(textOf(r), what).toMatch(reason);
  expect(decisionsFor(decisions, since, { target: call.name, arguments: call.arguments }), what).toEqual([expect.objectContaining({ outcome: 'deny', step: 'urls' })]);
}

describe('URL rules against SSRF', () => {
  it('refuses the metadata endpoint however its address is written', async () => {
    const c = await connect(tokens.mallory);
    const metadata = /cloud metadata host \(169\.254\.169\.254\)/;
    for (const u of ['http://169.254.169.254/latest/meta-data/', 'http://2852039166/', 'http://0xa9fea9fe/', 'http://0251.0376.0251.0376/', 'http://169.254.43518/', 'http://[::ffff:169.254.169.254]/', 'http://[::ffff:a9fe:a9fe]/', 'http://%31%36%39.254.169.254/', 'HTTP://169.254.169.254.:80/']) {
      await refusedAtUrls(c, gzipCall(u), u, metadata);
    }
    await refusedAtUrls(c, gzipCall('http://[fd00:ec2::254]/latest/'), 'fd00:ec2::254', /cloud metadata host/);
    await refusedAtUrls(c, gzipCall('http://metadata.google.internal/computeMetadata/v1/'), 'gce', /cloud metadata host/);
    await c.close();
  });

  it('refuses loopback and private hosts, userinfo and trailing-dot tricks included', async () => {
    const c = await connect(tokens.mallory);
    for (const u of ['http://127.0.0.1:8808/admin/pause', 'http://127.1/', 'http://localhost./', 'http://LOCALHOST/', 'http://example.com@127.0.0.1/', 'http://[::1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://0/', 'http://10.0.0.1/', 'http://192.168.1.1/', 'http://[fe80::1]/']) {
      await refusedAtUrls(c, gzipCall(u), u, /(loopback|private|link-local|unspecified) host/);
    }
    // In any argument of a fetch-like tool, not only one named `url`.
    await refusedAtUrls(c, fetchCall('http://0x7f.1/admin'), 'q', /loopback host \(127\.0\.0\.1\)/);
    await refusedAtUrls(c, gzipCall('gopher://example.com/_x'), 'gopher', /scheme gopher:/);
    await refusedAtUrls(c, fetchCall('https://example.com/admin/users'), 'deny rule', /example\.com\/admin/);
    await c.close();
  });

  it('lets ordinary URLs through (the controls), and what the role allows by name', async () => {
    const c = await connect(tokens.mallory);
    const packed = await gzip(c, `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`);
    expect(packed.isError).toBeFalsy();
    expect(textOf(await fetchIt(c, 'https://example.com/docs'))).toMatch(/fetch got/);
    await c.close();
    const ops = await connect(tokens.ops);
    expect(textOf(await fetchIt(ops, 'http://localhost:8808/readyz'))).toMatch(/fetch got/);
    expect(textOf(await fetchIt(ops, 'http://10.20.3.4/'))).toMatch(/fetch got/);
    await refusedAtUrls(ops, fetchCall('http://localhost:9999/'), 'another port', /loopback host/);
    await refusedAtUrls(ops, fetchCall('http://169.254.169.254/'), 'metadata even for ops', /cloud metadata host/);
    await ops.close();
  });
});

describe('URLs as the tool\'s parser reads them', () => {
  // Tabs and newlines anywhere, C0 controls and spaces around: the WHATWG parser (the tool's fetch) drops them.
  const disguises = (port: number) => [
    `ht\ttp://127.0.0.1:${port}/admin`,
    `http\n://127.0.0.1:${port}/admin`,
    `http:\r\n//127.0.0.1:${port}/admin`,
    `http://127.0.\t0.1:${port}/admin`,
    `\u0000\u0001 http://127.0.0.1:${port}/admin \u001f`,
  ];

  it('fetches each disguise from the loopback host for a role that allows it by name (the control)', async () => {
    const c = await connect(tokens.admin);
    adminHits.length = 0;
    for (const u of disguises(adminPort)) {
      expect(textOf(await c.callTool({ name: 'net__http_get', arguments: { url: u } })), JSON.stringify(u)).toBe('fetched 200: admin page');
      expect(textOf(await c.callTool({ name: 'net__open_link', arguments: { link: u } })), JSON.stringify(u)).toBe('fetched 200: admin page');
    }
    expect(adminHits).toHaveLength(2 * disguises(adminPort).length);
    await c.close();
  });

  it('refuses each disguise at the urls step under a URL key, a link key and a free-text value, and nothing reaches the host', async () => {
    const c = await connect(tokens.mallory);
    adminHits.length = 0;
    const loopback = new RegExp(`URL http://127\\.0\\.0\\.1:${adminPort}/admin at \\w+ points at a loopback host \\(127\\.0\\.0\\.1\\)`);
    for (const u of disguises(adminPort)) {
      await refusedAtUrls(c, { name: 'net__http_get', arguments: { url: u } }, `url: ${JSON.stringify(u)}`, loopback);
      await refusedAtUrls(c, { name: 'net__open_link', arguments: { link: u } }, `link: ${JSON.stringify(u)}`, loopback);
      await refusedAtUrls(c, fetchCall(u), `q: ${JSON.stringify(u)}`, loopback);
    }
    expect(adminHits).toEqual([]);
    // The same tool still fetches what the rules allow: a public URL is not refused at the urls step.
    const open = await c.callTool({ name: 'net__open_link', arguments: { link: 'https://example.invalid/' } });
    expect(textOf(open)).toMatch(/^fetch failed/);
    await c.close();
  });
});
