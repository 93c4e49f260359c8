import type { Client } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { ROOT } from '../helpers/servers.js';
import { connectWithToken } from '../helpers/clients.js';

/**
 * `resources/read` of a `file:` URI is a file read: the role's path rules apply, canonicalised the same way as
 * a tool's path arguments; a role's `resources` URI globs apply to every URI. The fixture server reads any URI
 * it is given, so only sluice stands between a client and the rest of the disk.
 */
let gw: TestGateway;
let root: string;
let allowed: string;
const tokens: Record<string, string> = {};
const decisions: DecisionEvent[] = [];
const url = (p: string) => pathToFileURL(p).href;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'sluice-resource-paths-'));
  allowed = path.join(root, 'allowed');
  mkdirSync(path.join(allowed, 'private'), { recursive: true });
  mkdirSync(path.join(root, 'secret'));
  writeFileSync(path.join(allowed, 'notes.txt'), 'ordinary notes\n');
  writeFileSync(path.join(allowed, 'private', 'diary.txt'), 'dear diary\n');
  writeFileSync(path.join(root, 'secret', 'key.txt'), 'the secret\n');
  symlinkSync(path.join(root, 'secret'), path.join(allowed, 'shortcut'));
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  alice: { role: reader }
  carol: { role: narrow }
roles:
  reader:
    default: deny
    paths:
      allow: [${JSON.stringify(allowed + '/**')}]
      deny: [${JSON.stringify(allowed + '/private/**')}]
  narrow:
    default: deny
    resources:
      allow: ["file:///**/notes.txt", "memo://**"]
      deny: ["**/private/**"]
mcpServers:
  disk:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/file-resource-server.mjs'))}, ${JSON.stringify(allowed)}]
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  tokens.alice = store.create('alice').token;
  tokens.carol = store.create('carol').token;
  gw.gateway.events.on('decision', (e) => decisions.push(e));
});
afterAll(async () => gw?.stop());

const connect = (token: string): Promise<Client> => connectWithToken(gw.url, token, 'resource-paths');

async function refused(c: Client, uri: string, step: string) {
  await expect(c.readResource({ uri }), uri).rejects.toThrow(new RegExp(`sluice refused this request at the ${step} step`));
  expect(decisions.at(-1), uri).toMatchObject({ method: 'resources/read', outcome: 'deny', step });
}

describe('path rules on file: resources', () => {
  it('reads a file inside the tree (the control)', async () => {
    const c = await connect(tokens.alice);
    const r = await c.readResource({ uri: url(path.join(allowed, 'notes.txt')) });
    expect((r.contents[0] as { text: string }).text).toBe('ordinary notes\n');
    await c.close();
  });

  it('refuses files outside the tree however the URI spells them', async () => {
    const c = await connect(tokens.alice);
    await refused(c, url(path.join(root, 'secret', 'key.txt')), 'paths');
    await refused(c, `file://${allowed}/../secret/key.txt`, 'paths');
    await refused(c, `file://${allowed}/%2e%2e/secret/key.txt`, 'paths');
    await refused(c, url(path.join(allowed, 'shortcut', 'key.txt')), 'paths'); // a symlink out of the tree
    await refused(c, url(path.join(allowed, 'private', 'diary.txt')), 'paths'); // inside, but denied
    await refused(c, 'file:///etc/passwd', 'paths');
    await c.close();
  });
});

describe('resource rules (URI globs) of a role', () => {
  it('lets through only what the allow list names, and never what the deny list does', async () => {
    const c = await connect(tokens.carol);
    expect(((await c.readResource({ uri: url(path.join(allowed, 'notes.txt')) })).contents[0] as { text: string }).text).toBe('ordinary notes\n');
    await refused(c, url(path.join(allowed, 'private', 'diary.txt')), 'resource-rule');
    await refused(c, url(path.join(root, 'secret', 'key.txt')), 'resource-rule');
    await c.close();
  });
});
