import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { EVERYTHING } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';
import { freePort } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

/**
 * An upstream that dies saying its credentials on stderr (a connection string, a token): /readyz answers anyone
 * who can reach the port, so it says why in one word; the operator sees the error text, with secrets redacted.
 */
const PASSWORD = 'S3cr3t-Passw0rd';
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const DYING = `console.error("FATAL: cannot reach postgres://svc:${PASSWORD}@db.internal:5432/app with token ${TOKEN}"); process.exit(3)`;

let gw: TestGateway;
let base: string;
let admin: string;
/** An HTTP upstream that refuses every request with 401 and a body that says a token. */
let locked: Server;

beforeAll(async () => {
  locked = createServer((_req, res) => res.writeHead(401, { 'content-type': 'text/plain' }).end(`invalid token ${TOKEN}`));
  await new Promise<void>((resolve) => locked.listen(0, '127.0.0.1', resolve));
  const closedPort = await freePort();
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
mcpServers:
  leaky:
    command: node
    args: [-e, ${JSON.stringify(DYING)}]
  locked:
    type: http
    url: http://127.0.0.1:${(locked.address() as { port: number }).port}/mcp
  gone:
    type: http
    url: http://127.0.0.1:${closedPort}/mcp
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`);
  base = gw.url.replace('/mcp', '');
  admin = new FileTokenStore(gw.gateway.config.security.tokensFile).create('admin:operator').token;
  await waitFor(() => gw.gateway.upstreams.find((u) => u.name === 'leaky')?.state === 'unavailable', 10_000, 'the leaky server to die');
});
afterAll(async () => {
  await gw?.stop();
  locked?.close();
});

const noSecret = (text: string) => {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(TOKEN);
};

describe('an upstream that prints its credentials and dies', () => {
  it('/readyz (unauthenticated) says why in one word, and holds no part of what the server wrote', async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    const text = await res.text();
    noSecret(text);
    expect(text).not.toContain('FATAL');
    const leaky = (JSON.parse(text) as { upstreams: { name: string; state: string; reason?: string }[] }).upstreams.find((u) => u.name === 'leaky')!;
    expect(leaky.state).not.toBe('ready');
    expect(leaky.reason).toBe('exited');
  });

  it('classifies a remote upstream that refuses the connection, or the credentials', async () => {
    const { upstreams } = (await (await fetch(`${base}/readyz`)).json()) as { upstreams: { name: string; reason?: string }[] };
    expect(upstreams.find((u) => u.name === 'gone')?.reason).toBe('refused');
    expect(upstreams.find((u) => u.name === 'locked')?.reason).toBe('auth failed');
  });

  it('shows the operator the error text with the secrets redacted (admin API, as the console and CLI read it)', async () => {
    expect((await fetch(`${base}/admin/status`)).status).toBe(401);
    const res = await fetch(`${base}/admin/status`, { headers: { authorization: `Bearer ${admin}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    noSecret(text);
    const leaky = (JSON.parse(text) as { upstreams: { name: string; reason?: string; lastError?: string }[] }).upstreams.find((u) => u.name === 'leaky')!;
    expect(leaky.reason).toBe('exited');
    expect(leaky.lastError).toMatch(/exited with code 3 \(last stderr: FATAL: cannot reach \[REDACTED:connection-string\].* with token \[REDACTED:github-token\]\)/);
  });

  it('shows the same in `sluice status`', async () => {
    const cliConfig = writeConfig(mkdtempSync(path.join(tmpdir(), 'sluice-status-')), 'listen: 127.0.0.1:0\nmcpServers: {}\n');
    const status = await runSluice(['status', '-c', cliConfig, '--url', base, '--token', admin]);
    expect(status.code, status.stderr).toBe(0);
    noSecret(status.stdout);
    expect(status.stdout).toMatch(/^everything {2}ready {2}\d+ tools$/m);
    expect(status.stdout).toMatch(/^leaky {2}(unavailable|connecting) {2}0 tools.*\n {4}.*\[REDACTED:github-token\]/m);
  });

  it('tells a client that reaches it only the word, not the text', async () => {
    const leaky = gw.gateway.upstreams.find((u) => u.name === 'leaky')!;
    const message = await leaky.request('tools/list', {}).then(() => '', (err: Error) => err.message);
    expect(message).toBe('upstream server "leaky" is unavailable (exited)');
  });
});
