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
import { decisionsFor } from '../helpers/decisions.js';

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
  dave: { role: denylist }
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
  denylist:
    default: deny
    resources:
      deny: ["**/private/**", "memo://secret/**"]
mcpServers:
  disk:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/file-resource-server.mjs'))}, ${JSON.stringify(allowed)}]
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  tokens.alice = store.create('alice').token;
  tokens.carol = store.create('carol').token;
  tokens.dave = store.create('dave').token;
  gw.gateway.onDecision((e) => decisions.push(e));
});
afterAll(async () => gw?.stop());

const connect = (token: string): Promise<Client> => connectWithToken(gw.url, token, 'resource-paths');

async function refused(c: Client, uri: string, step: string) {
  const since = decisions.length;
  await expect(c.readResource({ uri }), uri).rejects.toThrow(new RegExp(`sluice refused this request at the ${step} step`));
  expect(decisionsFor(decisions, since, { method: 'resources/read', target: uri }), uri).toEqual([expect.objectContaining({ outcome: 'deny', step })]);
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

describe('the URI that is checked is the URI that is forwarded', () => {
  const textOf = (r: { contents: unknown[] }) => (r.contents[0] as { text: string }).text;
  const uriOf = (r: { contents: unknown[] }) => (r.contents[0] as { uri: string }).uri;

  it('refuses an encoded "?" that hid ../.. from the check (it was checked as allowed/x and read as secret/key.txt)', async () => {
    const c = await connect(tokens.alice);
    await refused(c, `file://${allowed}/x%3F/../../secret/key.txt`, 'paths');
    await refused(c, `file://${allowed}/x%23/../../secret/key.txt`, 'paths');
    await c.close();
  });

  it('forwards the canonical URI, dots resolved, and no other spelling', async () => {
    const c = await connect(tokens.alice);
    const r = await c.readResource({ uri: `FILE://localhost${allowed}/./private/../notes.txt` });
    expect(textOf(r)).toBe('ordinary notes\n');
    expect(uriOf(r)).toBe(url(path.join(allowed, 'notes.txt'))); // the fixture echoes the URI it was sent
    await c.close();
  });

  it('refuses a file: URI whose decoded names carry separators, markers or a second layer of encoding', async () => {
    const c = await connect(tokens.alice);
    for (const [uri, why] of [
      [`file://${allowed}/x%3F`, /"\?"/],
      [`file://${allowed}/x%23y`, /"#"/],
      [`file://${allowed}/a%5Cb`, /"\\\\"/],
      [`file://${allowed}/a%00b`, /NUL/],
      [`file://${allowed}/notes%252etxt`, /still percent-encoded/],
      [`file://${allowed}/%EF%BC%8E%EF%BC%8E/secret/key.txt`, /NFKC/], // full-width ．．
      [`file://${allowed}/a%EF%BC%8Fb`, /NFKC/], // full-width ／
      [`file://${allowed}/.%E2%80%8B./secret/key.txt`, /ignorable/], // . ZWSP . is .. once invisibles go
      [`file://${allowed}/notes.txt?x=1`, /query or fragment/],
      [`file://${allowed}/notes.txt#top`, /query or fragment/],
      [`file://${allowed}/notes.txt?`, /query or fragment/],
      ['file://elsewhere.example/etc/passwd', /host/],
    ] as const) {
      const since = decisions.length;
      await expect(c.readResource({ uri }), uri).rejects.toThrow(why);
      expect(decisionsFor(decisions, since, { method: 'resources/read', target: uri }), uri).toEqual([expect.objectContaining({ outcome: 'deny' })]);
    }
    await c.close();
  });

  it('applies deny rules to a name that reads as denied once invisible characters go', async () => {
    const c = await connect(tokens.alice);
    await refused(c, `file://${allowed}/private%E2%80%8B/diary.txt`, 'paths');
    await c.close();
  });
});

describe('resource rules see through encodings', () => {
  it('refuses a denied segment spelled with percent-encoding or in another case of scheme', async () => {
    const c = await connect(tokens.dave);
    expect(((await c.readResource({ uri: url(path.join(allowed, 'notes.txt')) })).contents[0] as { text: string }).text).toBe('ordinary notes\n');
    await refused(c, `file://${allowed}/%70rivate/diary.txt`, 'resource-rule');
    await refused(c, `file://${allowed}/priv%61te/diary.txt`, 'resource-rule');
    await refused(c, `FILE://${allowed}/private/diary.txt`, 'resource-rule');
    await refused(c, 'memo://secret/%6Eotes', 'resource-rule');
    await refused(c, 'MEMO://SECRET/notes', 'resource-rule');
    await c.close();
  });

  it('refuses dot segments in a URI that is forwarded as sent (servers disagree on what they mean)', async () => {
    const c = await connect(tokens.dave);
    await refused(c, 'memo://public/../secret/notes', 'resource-rule');
    await refused(c, 'memo://public/%2e%2e%2Fsecret/notes', 'resource-rule');
    await c.close();
  });
});
