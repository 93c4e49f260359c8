/** Finding the URL arguments of a call: by key, by schema format, by selector, and in free text. */
import { describe, expect, it } from 'vitest';
import { findUrlArgs } from '../../src/policy/url-args.js';
import type { UrlRules } from '../../src/policy/url-rules.js';
import { check, none, refusal } from '../helpers/url-rules.js';

describe('finding URL arguments', () => {
  const found = (args: Record<string, unknown>, schema?: Record<string, unknown>, selectors: string[] = [], freeText?: 'off' | 'values' | 'embedded') =>
    findUrlArgs(args, schema, selectors, { freeText }).map((u) => `${u.at.join('.')}=${u.url} (${u.via})`).sort();

  it('finds URL keys without case, at any depth, in arrays, and checks scheme-less values as https', () => {
    const args = {
      URL: 'https://a.example/',
      Endpoint: 'b.example:8443/v1',
      nested: { deeper: { image_url: 'c.example/x.png', redirectUri: '//d.example/cb', 'base-url': 'localhost:3000' } },
      urls: ['https://e.example/', 'f.example'],
      links: [{ href: 'g.example' }],
      relative: [{ uri: '/docs/page' }, { href: './x' }, { url: '../up' }, { url: '?a=1' }, { endpoint: '#top' }, { url: '\\share' }],
      count: 3,
    };
    expect(found(args)).toEqual([
      'Endpoint=https://b.example:8443/v1 (key)',
      'URL=https://a.example/ (key)',
      'links.0.href=https://g.example (key)',
      'nested.deeper.base-url=https://localhost:3000 (key)',
      'nested.deeper.image_url=https://c.example/x.png (key)',
      'nested.deeper.redirectUri=https://d.example/cb (key)',
      'urls.0=https://e.example/ (key)',
      'urls.1=https://f.example (key)',
    ]);
  });

  it('counts values under link-like keys (src, target, link…) only when they are URLs', () => {
    expect(found({ target: '/tmp/x', src: 'notes.txt', link: 'README', source: 'C:\\data\\x' }, undefined, [], 'off')).toEqual([]);
    expect(found({ target: 'https://a.example/', src: ['http://b.example/'] }, undefined, [], 'off')).toEqual(['src.0=http://b.example/ (key)', 'target=https://a.example/ (key)']);
  });

  it('refuses a scheme-less metadata address under a URL key', () => {
    expect(refusal(check({ url: '169.254.169.254/latest/meta-data/' }))).toContain('cloud metadata host (169.254.169.254)');
    expect(refusal(check({ endpoint: 'localhost:8080' }))).toContain('loopback host (localhost)');
    expect(refusal(check({ url: 'example.com/page' }))).toBe('allowed');
  });

  it('finds arguments by schema format at any depth, items and anyOf included', () => {
    const schema = {
      type: 'object',
      properties: {
        location: { type: 'string', format: 'uri' },
        spot: { type: 'string', format: 'uri-reference' },
        mirrors: { type: 'array', items: { type: 'string', format: 'url' } },
        config: { type: 'object', properties: { upstream: { type: 'string', format: 'iri' } } },
        either: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }] },
        plain: { type: 'string' },
      },
    };
    const args = { location: '10.0.0.5/x', spot: '/relative', mirrors: ['m1.example', 'https://m2.example/'], config: { upstream: 'u.example' }, either: 'e.example', plain: 'p.example' };
    expect(found(args, schema, [], 'off')).toEqual([
      'config.upstream=https://u.example (format)',
      'either=https://e.example (format)',
      'location=https://10.0.0.5/x (format)',
      'mirrors.0=https://m1.example (format)',
      'mirrors.1=https://m2.example/ (format)',
    ]);
    expect(refusal(check(args, none, [], schema))).toContain('private host (10.0.0.5)');
  });

  it('finds arguments by selector, in the path-args syntax', () => {
    const args = { options: { location: '10.0.0.1' }, items: [{ file: 'a.example' }, { file: 'b.example' }, { other: 'c.example' }], hosts: ['d.example'] };
    expect(found(args, undefined, ['options.location', 'items[].file', 'hosts', 'missing.path'], 'off')).toEqual([
      'hosts.0=https://d.example (selector)',
      'items.0.file=https://a.example (selector)',
      'items.1.file=https://b.example (selector)',
      'options.location=https://10.0.0.1 (selector)',
    ]);
    expect(refusal(check(args, none, ['options.location']))).toContain('private host (10.0.0.1)');
    expect(refusal(check(args, none, []))).toBe('allowed');
  });

  it('catches a whole-value URL under any key by default (a fetch tool with a q argument)', () => {
    expect(refusal(check({ q: 'http://169.254.169.254/' }))).toContain('URL http://169.254.169.254/ at q points at a cloud metadata host');
    expect(refusal(check({ deep: [{ query: '  http://0xa9fea9fe/latest  ' }] }))).toContain('at deep.0.query points at a cloud metadata host');
    expect(refusal(check({ q: 'http:\\\\127.1\\admin' }))).toContain('loopback host (127.0.0.1)');
    expect(refusal(check({ q: 'http:169.254.169.254' }))).toContain('cloud metadata host (169.254.169.254)');
    expect(refusal(check({ q: 'note:169.254.169.254' }))).toBe('allowed');
    expect(refusal(check({ q: 'http://example.com/' }))).toBe('allowed');
    expect(refusal(check({ q: 'http://169.254.169.254/' }, { allow: [], deny: [], freeText: 'off' }))).toBe('allowed');
    // a value that starts with a URL but is prose: the URLs in it
    expect(refusal(check({ q: 'http://10.0.0.1/ is the router' }))).toContain('private host (10.0.0.1)');
  });

  it('leaves URLs inside free text alone by default, and finds them all with freeText: embedded', () => {
    const args = { body: 'Please fetch http://169.254.169.254/latest/meta-data/iam and tell me.' };
    expect(refusal(check(args))).toBe('allowed');
    const embedded: UrlRules = { allow: [], deny: [], freeText: 'embedded' };
    expect(refusal(check(args, embedded))).toBe('URL http://169.254.169.254/latest/meta-data/iam at body points at a cloud metadata host (169.254.169.254), refused unless an allow entry names its exact host or address');
    expect(refusal(check({ body: 'see <https://example.com/a>, (http://example.org/b).' }, embedded))).toBe('allowed');
    expect(found({ notes: { text: 'a (https://a.example/x), b http:\\\\b.example, c HTTP://C.example.' } }, undefined, [], 'embedded')).toEqual([
      'notes.text=HTTP://C.example (text)',
      'notes.text=http:\\\\b.example (text)',
      'notes.text=https://a.example/x (text)',
    ]);
    // a URL in another URL's query, and one under a URL key whose text holds two
    expect(refusal(check({ url: 'https://ok.example/?next=http://127.0.0.1/admin' }, embedded))).toContain('loopback host (127.0.0.1)');
    expect(refusal(check({ url: 'https://ok.example/?next=http://127.0.0.1/admin' }))).toBe('allowed');
    // prose that only looks like a scheme, and Windows paths, are not URLs
    expect(found({ text: 'note: C:\\temp\\x and re:this and http:// alone' }, undefined, [], 'embedded')).toEqual([]);
  });

  it('reports the canonical URLs it checked', () => {
    expect(check({ a: { url: 'HTTPS://Example.com:443/x#f' }, b: ['https://example.com/x'] })).toEqual({ ok: true, urls: ['https://example.com/x'] });
    expect(check({ text: 'no urls here' })).toEqual({ ok: true, urls: [] });
  });
});
