import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { FILESYSTEM, OPEN_ACCESS } from '../helpers/servers.js';

/**
 * Keys shaped to slip past the secret filter: an AWS secret access key ending in `/` (no word boundary after
 * it — about 3% of real keys end in `/` or `+`) and a key id without a digit in a text without digits. With
 * `secret: redact`, neither may reach the client or the audit log in clear.
 */
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE/';
const KEY_ID = 'AKIAIOSFODNNABCDEFGH';
let gw: TestGateway;
let sandbox: string;

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-filter-evasion-'));
  sandbox = path.join(root, 'sandbox');
  mkdirSync(sandbox);
  writeFileSync(path.join(sandbox, 'slash.txt'), `[default]\naws_secret_access_key = ${SECRET}\n`);
  writeFileSync(path.join(sandbox, 'nodigits.txt'), `key id: ${KEY_ID}\n`);
  gw = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\ndataDir: ${JSON.stringify(path.join(root, 'data'))}\n${OPEN_ACCESS.replace('filters: { secret: label, pii: label, injection: label }', 'filters: { secret: redact, pii: label, injection: label }')}mcpServers:\n  files:\n    command: node\n    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]\n`);
});
afterAll(async () => gw?.stop());

describe('secrets shaped to slip past the filter', () => {
  it('redacts both from the result and from the audit log', async () => {
    const client = new Client({ name: 'evasion', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.url)));
    for (const [file, secret] of [['slash.txt', SECRET], ['nodigits.txt', KEY_ID]] as const) {
      const text = textOf(await client.callTool({ name: 'files__read_text_file', arguments: { path: path.join(sandbox, file) } }));
      expect(text, file).not.toContain(secret);
      expect(text, file).toMatch(/REDACTED|\[secret/i);
    }
    await client.close();
    await gw.gateway.audit!.settle();
    const records = (await gw.gateway.audit!.store.query({ limit: 100 }));
    const all = JSON.stringify(records);
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(KEY_ID);
    expect(records.filter((r) => r.target === 'files__read_text_file' && r.outcome === 'allow')).toHaveLength(2);
  });
});
