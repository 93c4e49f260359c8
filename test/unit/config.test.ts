import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError, formatProblem, parseConfig } from '../../src/config/load.js';

/** The problems a config is refused for, formatted as the reader sees them; none when it loads. */
function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map(formatProblem);
    throw err;
  }
  return [];
}
const problems = (yaml: string, env: NodeJS.ProcessEnv = {}) => problemsOf(() => parseConfig(yaml, 'my.yaml', env));

describe('config validation', () => {
  it('accepts an existing MCP client config unchanged (Claude Desktop shape)', () => {
    const json = JSON.stringify({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
        remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        old: { type: 'sse', url: 'https://example.com/sse' },
        sock: { url: 'ws://127.0.0.1:9000/ws' },
        off: { command: 'x', disabled: true },
      },
    });
    const config = parseConfig(json, 'claude_desktop_config.json', {});
    expect(config.servers.map((s) => [s.name, s.transport])).toEqual([
      ['fs', 'stdio'],
      ['remote', 'http'],
      ['old', 'sse'],
      ['sock', 'ws'],
    ]);
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 8808 });
  });

  it('reports every problem with file, line, column and the allowed values', () => {
    const found = problems(`listen: 127.0.0.1:8808
mcpServers:
  a:
    command: node
    mode: sometimes
    colour: blue
  b:
    url: ftp://nope
namespace:
  separator: "::"
`);
    expect(found).toEqual([
      expect.stringMatching(/^my\.yaml:5:11: mcpServers\.a\.mode: invalid value; allowed: "shared", "per-session"$/),
      expect.stringMatching(/^my\.yaml:6:5: mcpServers\.a\.colour: unknown key; allowed: type, command, args, .*mode/),
      expect.stringMatching(/^my\.yaml:8:10: mcpServers\.b\.url: must be an http/),
      expect.stringMatching(/^my\.yaml:10:14: namespace\.separator: /),
    ]);
  });

  it('rejects unknown top-level keys and YAML syntax errors with their line', () => {
    expect(problems('mcpServers: {}\nlisten_on: 1\n')).toEqual([expect.stringMatching(/^my\.yaml:2:1: listen_on: unknown key; allowed: listen, logLevel/)]);
    expect(problems('mcpServers:\n  a: [unclosed\n')[0]).toMatch(/^my\.yaml:\d+:\d+: YAML: /);
    expect(problems('mcpServers:\n  a:\n    command: x\n  a:\n    command: y\n')[0]).toMatch(/^my\.yaml:4:\d+: YAML: .*[Uu]nique|duplicate/i);
  });

  it('requires command or url, and keeps stdio keys off remote servers', () => {
    expect(problems('mcpServers:\n  a: {}\n')[0]).toMatch(/mcpServers\.a: needs either `command`/);
    expect(problems('mcpServers:\n  a:\n    url: http://x/mcp\n    args: [y]\n')[0]).toMatch(/:4:11: mcpServers\.a\.args: `args` applies only to stdio/);
  });

  it('expands ${VAR} from the environment and reports a missing one', () => {
    const config = parseConfig('mcpServers:\n  r:\n    url: http://127.0.0.1/mcp\n    headers:\n      Authorization: Bearer ${TOKEN}\n', 'x.yaml', { TOKEN: 's3cret' });
    const server = config.servers[0];
    expect(server.transport === 'http' && server.headers.Authorization).toBe('Bearer s3cret');
    expect(problems('mcpServers:\n  r:\n    url: http://127.0.0.1/mcp\n    headers:\n      Authorization: Bearer ${TOKEN}\n')[0]).toMatch(/:5:22: .*TOKEN is not set/);
  });

  it('rejects a wrong type with what was expected', () => {
    expect(problems('mcpServers:\n  a:\n    command: node\n    args: node x.js\n')[0]).toMatch(/:4:11: mcpServers\.a\.args: expected array/);
  });

  it('allows running without authentication only when switched off explicitly, on loopback, with a named agent', () => {
    const base = 'agents:\n  me: { role: r }\nroles:\n  r: { default: allow }\nmcpServers: {}\n';
    expect(parseConfig(base, 'x.yaml', {}).security.authRequired).toBe(true);
    expect(problems(`listen: 0.0.0.0:8808\nauth:\n  required: false\n  anonymousAgent: me\n${base}`)).toEqual([
      expect.stringMatching(/:3:13: auth\.required: authentication may be switched off only on a loopback address, and listen is 0\.0\.0\.0/),
    ]);
    expect(problems(`auth:\n  required: false\n${base}`)[0]).toMatch(/anonymousAgent` must name who/);
    expect(problems(`auth:\n  required: false\n  anonymousAgent: ghost\n${base}`)[0]).toMatch(/:3:19: auth\.anonymousAgent: unknown agent "ghost"; declared agents: me/);
  });

  it('rejects a misspelt policy and an agent with an unknown role', () => {
    expect(problems('agents:\n  a: { role: nope }\nroles:\n  r:\n    default: alow\nmcpServers: {}\n')).toEqual([
      expect.stringMatching(/:2:14: agents\.a\.role: unknown role "nope"; declared roles: r/),
      expect.stringMatching(/:5:14: roles\.r\.default: invalid value; allowed: "allow", "deny", "approve"/),
    ]);
  });

  it('reads what new, changed and flagged definitions get: per server, over the top-level default, and says what is allowed', () => {
    const config = parseConfig('definitions: { changed: allow }\nmcpServers:\n  a: { command: x }\n  b: { command: x, definitions: { new: quarantine, flagged: untrusted } }\n', 'x.yaml', {});
    expect(config.servers.map((s) => s.definitions)).toEqual([
      { new: undefined, changed: 'allow', flagged: 'quarantine' },
      { new: 'quarantine', changed: 'allow', flagged: 'untrusted' },
    ]);
    expect(parseConfig('mcpServers:\n  a: { command: x }\n', 'x.yaml', {}).servers[0].definitions).toEqual({ new: undefined, changed: 'quarantine', flagged: 'quarantine' });
    expect(problems('mcpServers:\n  a:\n    command: x\n    definitions: { changed: ask, rug: 1 }\n')).toEqual([
      expect.stringMatching(/:4:29: mcpServers\.a\.definitions\.changed: invalid value; allowed: "allow", "quarantine"/),
      expect.stringMatching(/:4:34: mcpServers\.a\.definitions\.rug: unknown key; allowed: new, changed, flagged/),
    ]);
  });
});

describe('a config built in code', () => {
  const YAML = `mcpServers:
  files: { command: npx, args: [-y, server-filesystem, data], cwd: work }
  web: { url: https://example.com/mcp, mode: per-session }
roles:
  reader: { tools: { "files__read_*": allow }, paths: { allow: [data/**] } }
agents:
  me: { role: reader }
audit: { retentionDays: 7 }
`;

  it('takes the file\'s shape and fills in every default the loader fills in, relative paths from its base', () => {
    const built = buildConfig(
      {
        mcpServers: { files: { command: 'npx', args: ['-y', 'server-filesystem', 'data'], cwd: 'work' }, web: { url: 'https://example.com/mcp', mode: 'per-session' } },
        roles: { reader: { tools: { 'files__read_*': 'allow' }, paths: { allow: ['data/**'] } } },
        agents: { me: { role: 'reader' } },
        audit: { retentionDays: 7 },
      },
      { baseDir: '/srv/sluice' },
    );
    expect(built).toEqual({ ...parseConfig(YAML, '/srv/sluice/sluice.yaml', {}), file: undefined });
    const [files, web] = built.servers;
    expect(files).toMatchObject({ name: 'files', prefix: 'files', transport: 'stdio', cwd: '/srv/sluice/work', requestTimeoutMs: 300_000, label: { integrity: 'untrusted', confidentiality: 'public' } });
    expect(web).toMatchObject({ transport: 'http', headers: {}, mode: 'per-session', maxSessions: 32 });
    expect(built.security.roles.reader).toMatchObject({ name: 'reader', default: 'approve', tools: [['files__read_*', 'allow']], paths: { allow: ['/srv/sluice/data/**'], deny: [] } });
    expect(built.security.audit).toMatchObject({ file: '/srv/sluice/.sluice/audit.db', retentionMs: 7 * 86_400_000, signIntervalMs: 60_000 });
    expect(built.listen).toEqual({ host: '127.0.0.1', port: 8808 });
    expect(buildConfig({ mcpServers: {}, dataDir: 'state' }).dataDir).toBe(path.resolve('state'));
  });

  it('refuses what the loader refuses, naming each key', () => {
    const input = JSON.parse('{"agents":{"a":{"role":"nope"}},"mcpServers":{"a":{"command":"x","mode":"sometimes","colour":"blue"}}}');
    expect(problemsOf(() => buildConfig(input))).toEqual([
      expect.stringMatching(/^config: mcpServers\.a\.mode: invalid value; allowed: "shared", "per-session"$/),
      expect.stringMatching(/^config: mcpServers\.a\.colour: unknown key; allowed: type, command, args, /),
      'config: agents.a.role: unknown role "nope"; declared roles: (none declared)',
    ]);
  });
});
