import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findPathArgs } from '../../src/policy/path-args.js';
import { MemoryRateLimits } from '../../src/state/memory-state.js';
import { operationOf, ToolRules } from '../../src/policy/rules.js';
import type { RoleConfig } from '../../src/config/schema.js';

const role = (tools: [string, 'allow' | 'deny' | 'approve'][], def: 'allow' | 'deny' | 'approve' = 'approve'): RoleConfig => ({
  name: 'r',
  default: def,
  tools,
  readOnly: false,
  isolateSessions: false,
  paths: { allow: [], deny: [] },
  resources: { allow: [], deny: [] },
  urls: { allow: [], deny: [], freeText: 'values' },
  onFlowViolation: 'deny',
  filters: { secret: 'redact', pii: 'label', injection: 'label' },
});

describe('tool rules', () => {
  it('takes the most restrictive matching rule, and the default when none matches', () => {
    const rules = new ToolRules(role([['files__*', 'allow'], ['files__write_*', 'approve'], ['*__delete*', 'deny']]));
    expect(rules.evaluate('files__read_file')).toEqual({ policy: 'allow', rule: 'files__*' });
    expect(rules.evaluate('files__write_file')).toEqual({ policy: 'approve', rule: 'files__write_*' });
    expect(rules.evaluate('files__delete_file')).toEqual({ policy: 'deny', rule: '*__delete*' });
    expect(rules.evaluate('other__x')).toEqual({ policy: 'approve', rule: 'default' });
  });

  it('treats a tool without annotations as a write, and honours overrides', () => {
    expect(operationOf({ name: 'x' }, undefined)).toBe('write');
    expect(operationOf({ name: 'x', annotations: { readOnlyHint: true } }, undefined)).toBe('read');
    expect(operationOf({ name: 'x', annotations: { readOnlyHint: 'yes' } }, undefined)).toBe('write');
    expect(operationOf({ name: 'x', annotations: { readOnlyHint: true } }, { operation: 'write' })).toBe('write');
  });
});

describe('path arguments', () => {
  it('finds paths by key name at any depth, in arrays, by schema format and by selector', () => {
    const args = { path: '/a', nested: { destination: '/b' }, paths: ['/c', '/d'], location: '/e', where: { spot: '/f' }, note: '/not-a-path' };
    const schema = { type: 'object', properties: { location: { type: 'string', format: 'path' } } };
    const found = findPathArgs(args, schema, ['where.spot']).map((p) => p.join('.'));
    expect(found.sort()).toEqual(['location', 'nested.destination', 'path', 'paths.0', 'paths.1', 'where.spot']);
  });

  it('counts uri-formatted arguments only when they are file: URLs', () => {
    const schema = { properties: { target: { format: 'uri' }, link: { format: 'uri' } } };
    expect(findPathArgs({ link: 'https://example.com' }, schema)).toEqual([]);
    expect(findPathArgs({ link: 'file:///etc/passwd' }, schema)).toEqual([['link']]);
  });
});

describe('path arguments named as real servers name them', () => {
  const found = (args: Record<string, unknown>, schema?: Record<string, unknown>) => findPathArgs(args, schema).map((p) => p.join('.')).sort();

  it('counts a name by its last word (or last two run together), at any depth', () => {
    const args = { repo_path: 'r', filePaths: ['a', 'b'], outputPath: 'o', fromFile: 'f', valuesFile: 'v', patchFile: 'p', fileName: 'n', outputDir: 'd', opts: { workingDirectory: 'w' } };
    expect(found(args)).toEqual(['fileName', 'filePaths.0', 'filePaths.1', 'fromFile', 'opts.workingDirectory', 'outputDir', 'outputPath', 'patchFile', 'repo_path', 'valuesFile']);
  });

  it('does not take for a path a name that only contains a path word', () => {
    expect(found({ repo: 'octo/hello', profile: 'default', file_id: '123', folder_id: 'abc', filename_pattern: '*.ts', dockerfile: 'FROM x', directory_url: 'https://x' })).toEqual([]);
  });

  it('counts a property whose description or title says path, directory or folder', () => {
    const schema = {
      properties: {
        out: { type: 'string', description: 'Absolute path of the report to write' },
        where: { type: 'string', title: 'Target Directory' },
        backup: { type: 'string', description: 'Folder to back up into' },
        items: { type: 'array', items: { type: 'string', description: 'A file path' } },
      },
    };
    expect(found({ out: '/o', where: '/w', backup: '/b', items: ['/i'] }, schema)).toEqual(['backup', 'items.0', 'out', 'where']);
  });

  it('ignores a description that mentions paths of a property whose name says it is something else, or paths into data', () => {
    const schema = {
      properties: {
        content: { type: 'string', description: 'Content to write to the file at path' },
        pattern: { type: 'string', description: 'Glob of file paths to match' },
        callback_url: { type: 'string', description: 'URL path to call back' },
        selector: { type: 'string', description: 'JSON path into the document' },
        folder_id: { type: 'string', description: 'Drive folder' },
      },
    };
    expect(found({ content: 'x', pattern: '*.ts', callback_url: '/cb', selector: '$.a', folder_id: '1' }, schema)).toEqual([]);
  });

  it('follows the schema into nested objects and array items (format: uri counts for file: URLs only)', () => {
    const schema = { properties: { options: { type: 'object', properties: { input: { type: 'string', format: 'uri' } } }, list: { type: 'array', items: { type: 'object', properties: { loc: { type: 'string', format: 'path' } } } } } };
    expect(found({ options: { input: 'file:///etc/passwd' }, list: [{ loc: '/a' }, { loc: '/b' }] }, schema)).toEqual(['list.0.loc', 'list.1.loc', 'options.input']);
    expect(found({ options: { input: 'https://example.com' } }, schema)).toEqual([]);
  });

  it('takes a schema from an upstream as data: odd shapes and inherited names change nothing', () => {
    const odd = { properties: { a: 'not a schema', b: null, c: { items: 7 }, toString: { format: 'path' } } };
    expect(found({ a: 'x', b: 'y', c: ['z'], constructor: 'w' }, odd as never)).toEqual([]);
  });

  it('finds in the tool-poisoning corpus exactly the arguments that are paths', () => {
    const corpus = JSON.parse(readFileSync(new URL('../fixtures/tool-poisoning/sluice_corpus_v1.json', import.meta.url), 'utf8')) as { entries: { tool?: { inputSchema?: { properties?: Record<string, { type?: string }> } } }[] };
    const names = new Set<string>();
    for (const { tool } of corpus.entries) {
      const props = tool?.inputSchema?.properties;
      if (!props) continue;
      const args = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.type === 'array' ? ['x'] : 'x']));
      for (const at of findPathArgs(args, tool.inputSchema)) names.add(String(at[0]));
    }
    // `destination` (an airport), `target` (a language) and `source` are the old fixed names' false positives.
    expect([...names].sort()).toEqual(['db_path', 'destination', 'example_file', 'file_path', 'files', 'folder', 'folders', 'key_path', 'path', 'paths', 'project_dir', 'public_key_path', 'repo_path', 'root', 'source', 'target']);
  });
});

describe('rate limiter', () => {
  it('allows a burst, then refills at the configured rate and says when to retry', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimits(() => now);
    const bucket = { perSecond: 2, burst: 3 };
    const take = (key: string) => limiter.take([{ key, bucket }]);
    for (let i = 0; i < 3; i++) expect((await take('a')).ok).toBe(true);
    expect(await take('a')).toEqual({ ok: false, index: 0, retryAfterMs: 500 });
    expect((await take('b')).ok).toBe(true); // another key has its own bucket
    now += 500;
    expect((await take('a')).ok).toBe(true);
  });
});

