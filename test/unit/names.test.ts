import { describe, expect, it } from 'vitest';
import { mergedName } from '../../src/gateway/names.js';
import { templateMatcher } from '../../src/protocol/uri-template.js';

describe('merged names', () => {
  it('joins prefix and name with the separator, or passes the name through with no prefix', () => {
    expect(mergedName('files', '__', 'read_file')).toBe('files__read_file');
    expect(mergedName('fs', '-', 'read_file')).toBe('fs-read_file');
    expect(mergedName('', '__', 'read_file')).toBe('read_file');
  });

  it('shortens long names to 64 characters deterministically, keeping distinct names distinct', () => {
    const long = 'a'.repeat(80);
    const one = mergedName('server', '__', `${long}_one`);
    const two = mergedName('server', '__', `${long}_two`);
    expect(one).toHaveLength(64);
    expect(two).toHaveLength(64);
    expect(one).not.toBe(two);
    expect(mergedName('server', '__', `${long}_one`)).toBe(one);
    expect(one.startsWith('server__aaaa')).toBe(true);
  });

  it('replaces characters clients refuse, without letting two names collapse into one', () => {
    const dotted = mergedName('s', '__', 'get.user');
    const slashed = mergedName('s', '__', 'get/user');
    expect(dotted).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(slashed).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(dotted).not.toBe(slashed);
  });
});

describe('URI templates', () => {
  it('matches URIs made from a template and nothing else', () => {
    const m = templateMatcher('demo://resource/dynamic/blob/{resourceId}');
    expect(m.test('demo://resource/dynamic/blob/7')).toBe(true);
    expect(m.test('demo://resource/dynamic/blob/')).toBe(false);
    expect(m.test('demo://resource/dynamic/blob/7/extra')).toBe(false);
    expect(m.test('demo://resource/dynamic/text/7')).toBe(false);
    expect(templateMatcher('file:///{+path}').test('file:///a/b/c.txt')).toBe(true);
    expect(templateMatcher('api://x{?q,limit}').test('api://x?q=1&limit=2')).toBe(true);
  });
});
