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

