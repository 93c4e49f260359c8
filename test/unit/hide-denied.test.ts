import { describe, expect, it } from 'vitest';
import { hideDenied, searchArguments } from '../../src/policy/hide-denied.js';

/**
 * Taking denied names out of a listing's result, whatever shape the listing has, and refusing to hand out a
 * result that still names one. `/s/hr/private` is denied with everything below it; `/s/keys/a.key` by a rule
 * with no fixed prefix; `/s/my secrets` has a space in its name.
 */
const DENY = ['/s/hr/private/**', '/s/**/*.key', '/s/my secrets/**'];
const HIDDEN = [{ dir: '/s', entries: ['/s/hr/private', '/s/hr/private/pay.txt', '/s/keys/a.key', '/s/my secrets', '/s/links/payroll'] }];
const text = (t: string) => ({ content: [{ type: 'text', text: t }], structuredContent: { content: t } });
const hide = (t: string) => hideDenied(text(t), HIDDEN, DENY);

describe('hideDenied', () => {
  it('drops the lines of a listing or search that name a denied entry, by full or relative path', () => {
    const { result, leaked } = hide(['/s/notes.txt', '/s/hr/private/pay.txt', 'hr/private/', '[DIR] hr', 'keys/a.key', '[FILE] my secrets        12 B', 'links/payroll'].join('\n'));
    expect(result).toEqual(text(['/s/notes.txt', '[DIR] hr'].join('\n')));
    expect(leaked).toBe(false);
  });

  it('keeps a name that only looks like a denied one', () => {
    const { result, leaked } = hide('[FILE] private-notes.txt\n[FILE] a.keyboard');
    expect(result).toEqual(text('[FILE] private-notes.txt\n[FILE] a.keyboard'));
    expect(leaked).toBe(false);
  });

  it('drops denied entries from a JSON tree, with everything under them, and keeps its indentation', () => {
    const tree = [
      { name: 'hr', type: 'directory', children: [{ name: 'private', type: 'directory', children: [{ name: 'pay.txt', type: 'file' }] }, { name: 'handbook.txt', type: 'file' }] },
      { name: 'keys', type: 'directory', children: [{ name: 'a.key', type: 'file' }, { name: 'a.pub', type: 'file' }] },
    ];
    const { result, leaked } = hide(JSON.stringify(tree, null, 2));
    const kept = [
      { name: 'hr', type: 'directory', children: [{ name: 'handbook.txt', type: 'file' }] },
      { name: 'keys', type: 'directory', children: [{ name: 'a.pub', type: 'file' }] },
    ];
    expect(result).toEqual(text(JSON.stringify(kept, null, 2)));
    expect(leaked).toBe(false);
  });

  it('says a result leaks when a denied name is left where no filter could take it out', () => {
    expect(hide('the folder holds pay.txt!').leaked).toBe(true);
    expect(hide('see "my secrets" for more').leaked).toBe(true);
    expect(hideDenied({ content: [{ type: 'text', text: 'ok' }], _meta: { note: 'it holds pay.txt.' } }, HIDDEN, DENY).leaked).toBe(true);
    expect(hide('nothing to see').leaked).toBe(false);
  });
});

describe('searchArguments', () => {
  const schema = { properties: { path: { type: 'string' }, sortBy: { type: 'string', enum: ['name', 'size'] }, pattern: { type: 'string' } } };

  it('names the arguments besides the paths that could make a result depend on hidden names', () => {
    expect(searchArguments({ path: '/s', pattern: '**/pay*' }, [['path']], schema)).toEqual(['pattern']);
    expect(searchArguments({ path: '/s', limit: 3 }, [['path']], schema)).toEqual(['limit']);
    expect(searchArguments({ path: '/s', opts: { excludes: ['x'] } }, [['path']], schema)).toEqual(['opts']);
  });

  it('lets through an enumerated choice, a boolean and empty values', () => {
    expect(searchArguments({ path: '/s', sortBy: 'size', recursive: true, excludePatterns: [], note: '' }, [['path']], schema)).toEqual([]);
    expect(searchArguments({ path: '/s', sortBy: 'name; rm' }, [['path']], schema)).toEqual(['sortBy']);
  });
});
