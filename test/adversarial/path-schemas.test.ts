import type { Client } from '@modelcontextprotocol/client';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { connectWithToken } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { ROOT } from '../helpers/servers.js';

/**
 * Path rules must see the path arguments real servers have, whatever they call them: a path was once recognised
 * by a short list of argument names, so mcp-server-git's `repo_path` (all twelve of its tools) went unchecked and
 * `git_status` ran on a repository outside `paths.allow`. The fixture server's schemas name paths the way real
 * servers do; it echoes what it was sent.
 */
let gw: TestGateway;
let client: Client;
let work: string;
let outside: string;

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-path-schemas-'));
  work = path.join(root, 'work');
  outside = path.join(root, 'elsewhere');
  mkdirSync(path.join(work, 'repo'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(work, 'values.yaml'), 'replicas: 1\n');
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(path.join(root, 'data'))}
agents:
  dev: { role: developer }
roles:
  developer:
    default: allow
    paths: { allow: [${JSON.stringify(work + '/**')}] }
mcpServers:
  s:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/path-schema-server.mjs'))}]
    cwd: ${JSON.stringify(work)}
    tools:
      mirror: { paths: [spec.where] }
`);
  const token = new FileTokenStore(gw.gateway.config.security.tokensFile).create('dev').token;
  client = await connectWithToken(gw.url, token, 'path-schemas');
});
afterAll(async () => {
  await client?.close();
  await gw?.stop();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name: `s__${name}`, arguments: args });

async function refused(name: string, args: Record<string, unknown>) {
  const result = await call(name, args);
  expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
  expect(textOf(result)).toMatch(new RegExp(`sluice refused this call at the paths step: path ${outside}[^ ]* is outside the allowed paths`));
}

/** What the server was sent: the fixture echoes its arguments. */
async function sent(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result));
}

describe('path arguments named the way real servers name them', () => {
  it("checks mcp-server-git's repo_path (a title, no description)", async () => {
    await refused('git_status', { repo_path: outside });
    await refused('git_log', { repo_path: `${work}/../elsewhere`, max_count: 3 });
    expect(await sent('git_status', { repo_path: `${work}/repo/.` })).toEqual({ repo_path: `${work}/repo` });
  });

  it('checks filePaths, outputPath, fromFile, valuesFile and patchFile', async () => {
    await refused('read_files', { filePaths: [`${work}/values.yaml`, `${outside}/x`] });
    await refused('save_pdf', { html: '<p>hi</p>', outputPath: `${outside}/out.pdf` });
    await refused('kubectl_create', { fromFile: `${outside}/pod.yaml` });
    await refused('install_helm_chart', { name: 'web', chart: 'bitnami/nginx', valuesFile: `${outside}/values.yaml` });
    await refused('kubectl_patch', { resource: 'deploy/web', patchFile: `${outside}/patch.json` });
    // Relative paths resolve against the server's working directory, and go on in their canonical form.
    expect(await sent('install_helm_chart', { name: 'web', chart: 'bitnami/nginx', valuesFile: 'values.yaml' })).toEqual({ name: 'web', chart: 'bitnami/nginx', valuesFile: `${work}/values.yaml` });
  });

  it('checks an argument whose description says it is a path', async () => {
    await refused('export_report', { out: `${outside}/report.csv` });
  });

  it('checks a nested format: uri argument when it holds a file: URL, and leaves other URLs to the URL rules', async () => {
    await refused('import_data', { options: { input: `file://${outside}/data.csv` } });
    expect(await sent('import_data', { options: { origin: 'https://example.com/data.csv' } })).toEqual({ options: { origin: 'https://example.com/data.csv' } });
  });

  it('checks an argument the operator named as a path for that tool', async () => {
    await refused('mirror', { spec: { where: `${outside}/copy` } });
  });

  it('leaves alone what only looks like a path: a GitHub repo, file contents, a glob, a profile', async () => {
    const args = { owner: 'octo', repo: 'octo/hello-world' };
    expect(await sent('get_repo', args)).toEqual(args);
    const file = { content: 'see ../../etc/passwd', pattern: '**/*.ts', profile: 'default' };
    expect(await sent('create_file', file)).toEqual(file);
  });
});
