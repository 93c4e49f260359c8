import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, for paths to the real upstream servers installed in node_modules. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
export const CLI = path.join(ROOT, 'src/cli/main.ts');
/** Our own server with the conformance suite's fixture names (test_simple_text, test://static-text, …). */
export const FIXTURE = path.join(ROOT, 'test/fixtures/conformance-server.ts');

/** A fresh folder with a couple of files, for server-filesystem to serve. */
export function makeSandbox(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-sandbox-'));
  writeFileSync(path.join(dir, 'hello.txt'), 'hello from the sandbox\n');
  return dir;
}

/**
 * Security settings for tests of the gateway's plumbing: no tokens (loopback only), one agent whose role
 * allows everything and only labels what the filters find. Security tests write their own.
 */
export const OPEN_ACCESS = `auth:
  required: false
  anonymousAgent: tester
agents:
  tester: { role: open }
roles:
  open:
    default: allow
    onFlowViolation: allow
    filters: { secret: label, pii: label, injection: label }
`;

/** YAML for a gateway in front of server-everything and server-filesystem, on any free loopback port. */
export function defaultYaml(sandbox: string, extra = ''): string {
  return `listen: 127.0.0.1:0
logLevel: silent
${OPEN_ACCESS}${extra}
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  files:
    command: node
    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(sandbox)}]
`;
}

/** YAML for a gateway in front of one server-everything named `name`, with extra keys for that server. */
export function everythingYaml(name = 'everything', serverKeys: Record<string, string | number> = {}): string {
  const extra = Object.entries(serverKeys).map(([k, v]) => `\n    ${k}: ${v}`).join('');
  return `listen: 127.0.0.1:0\nlogLevel: silent\n${OPEN_ACCESS}mcpServers:\n  ${name}:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]${extra}\n`;
}
