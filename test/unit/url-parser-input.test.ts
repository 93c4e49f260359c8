import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findUrlArgs } from '../../src/policy/url-args.js';
import { checkUrls, type UrlRules } from '../../src/policy/url-rules.js';

/**
 * The URL rules must judge the URL a parser reads, not the string as written: the WHATWG parser (Node's
 * `new URL()` and fetch, browsers; Python's urlsplit does the same) strips leading and trailing C0 controls
 * and spaces and removes ASCII tabs and newlines anywhere, so `ht\ttp://127.0.0.1/admin` is
 * `http://127.0.0.1/admin`. The oracle here is the parser Node ships.
 */
const none: UrlRules = { allow: [], deny: [] };
const embedded: UrlRules = { allow: [], deny: [], freeText: 'embedded' };
const refusal = (args: Record<string, unknown>, rules: UrlRules = none) => {
  const r = checkUrls(args, undefined, [], rules);
  return r.ok ? 'allowed' : r.reason;
};

describe('URLs as the WHATWG parser reads them', () => {
  it('refuses a loopback URL split by a tab in its scheme, under any key and in free text', () => {
    const disguised = 'ht\ttp://127.0.0.1:8808/admin';
    expect(new URL(disguised).href).toBe('http://127.0.0.1:8808/admin');
    expect(refusal({ q: disguised })).toContain('URL http://127.0.0.1:8808/admin at q points at a loopback host (127.0.0.1)');
    expect(refusal({ url: disguised })).toContain('loopback host (127.0.0.1)');
    expect(refusal({ target: disguised })).toContain('loopback host (127.0.0.1)');
    expect(refusal({ body: `please fetch ${disguised} now` }, embedded)).toMatch(/refused unless|loopback host/);
  });

  it.each([
    ['newline before the colon', 'http\n://10.0.0.1/'],
    ['carriage return after the colon', 'http:\r//169.254.169.254/latest/'],
    ['tabs inside the host', 'http://127.\t0.0\t.1/'],
    ['newline inside the port', 'http://localhost:80\n80/'],
    ['leading C0 controls and spaces', '\u0000\u0001 \u001fhttp://192.168.1.1/'],
    ['trailing C0 controls', 'http://[::1]/x\u0000\u001b\u000b'],
    ['leading vertical tab and form feed', '\u000b\u000chttp://127.1/'],
  ])('%s', (_what, disguised) => {
    expect(URL.canParse(disguised), 'the parser reads it').toBe(true);
    expect(refusal({ q: disguised }), 'free-text value').not.toBe('allowed');
    expect(refusal({ url: disguised }), 'URL key').not.toBe('allowed');
    expect(refusal({ link: disguised }), 'link key').not.toBe('allowed');
    expect(refusal({ body: `go to ${disguised}` }, embedded), 'embedded').not.toBe('allowed');
  });

  it('checks a scheme-less value under a URL key as a tool that adds https:// would read it', () => {
    expect(refusal({ endpoint: '\u0001 local\thost:8080\n' })).toContain('loopback host (localhost)');
    expect(refusal({ url: ' \t169.254.169.254/latest' })).toContain('cloud metadata host (169.254.169.254)');
  });

  it('in free text, does not make a URL of words that a removed newline joins (the controls)', () => {
    // With newlines removed, `here\nhttps://` reads `herehttps://`: a scheme no link finder or model would see.
    expect(refusal({ body: 'Click here\nhttps://example.com/docs\nThanks' }, embedded)).toBe('allowed');
    expect(refusal({ body: 'line one\nhttp://example.org/a\tb' }, embedded)).toBe('allowed');
    expect(refusal({ q: 'https://example.com/\t' })).toBe('allowed');
    expect(refusal({ url: '\nhttps://example.com/a\n' }, { allow: ['example.com'], deny: [] })).toBe('allowed');
    // A list of URLs, one a line, stays a list: a URL does not run on into the next one.
    const list = 'https://api.example.com\nhttps://api.example.com/v2\r\n\thttps://api.example.com/v3';
    expect(findUrlArgs({ body: list }, undefined, [], { freeText: 'embedded' }).map((u) => u.url).sort()).toEqual(['https://api.example.com', 'https://api.example.com/v2', 'https://api.example.com/v3']);
    expect(refusal({ body: list }, { allow: ['api.example.com'], deny: [], freeText: 'embedded' })).toBe('allowed');
  });

  it('refuses a string with more URLs inside URLs than can be checked, and checks a long list of URLs', () => {
    // Each URL in text runs to the next white space: here every one of 20,000 runs to the end.
    expect(refusal({ body: `see ${'https://a.example/'.repeat(20_000)}` }, embedded)).toBe('URL argument body cannot be checked: it holds more URLs inside URLs than can be checked');
    expect(refusal({ q: `http://999.1.1.1/ ${'https://a.example/'.repeat(20_000)}` })).toContain('cannot be checked');
    const lines = Array.from({ length: 20_000 }, (_, i) => `https://a.example/${i}`).join('\n');
    expect(refusal({ body: lines }, embedded)).toBe('allowed');
    expect(refusal({ body: `${lines}\nhttp://10.0.0.1/` }, embedded)).toContain('private host (10.0.0.1)');
    expect(refusal({ body: 'https://a.example/?next=https://b.example/?then=http://127.0.0.1/' }, embedded)).toContain('loopback host');
  });
});

// ---- Property: whatever Node's parser reads as a non-public host, the rules refuse ----

const TARGETS = [
  'http://127.0.0.1:8808/admin/pause',
  'http://localhost/x',
  'https://10.1.2.3/',
  'http://[::1]:3000/',
  'http://169.254.169.254/latest/meta-data/',
  'ws://192.168.0.10/socket',
  'http:127.1/',
  'http://0x7f.1/',
  'HTTP://LOCALHOST./',
  'https://metadata.google.internal/computeMetadata/v1/',
];
/** The hosts the parser reads in the targets: every one loopback, private, link-local or metadata. */
const NON_PUBLIC = new Set(TARGETS.map((t) => new URL(t).hostname));
/** What a parser drops (tabs, newlines; C0 and spaces at the edges), and more rarely what it keeps inside. */
const NOISE = fc.oneof(
  { arbitrary: fc.constantFrom('\t', '\n', '\r'), weight: 3 },
  { arbitrary: fc.constantFrom(' ', '\u0000', '\u0001', '\u000b', '\u000c', '\u001b', '\u001f'), weight: 1 },
);

const disguised = fc
  .tuple(fc.constantFrom(...TARGETS), fc.array(fc.tuple(fc.nat(), NOISE), { maxLength: 6 }), fc.array(NOISE, { maxLength: 3 }), fc.array(NOISE, { maxLength: 3 }))
  .map(([target, inserts, before, after]) => {
    let s = target;
    for (const [at, c] of inserts) {
      const i = at % (s.length + 1);
      s = s.slice(0, i) + c + s.slice(i);
    }
    return before.join('') + s + after.join('');
  });

const PLACES: [string, (s: string) => Record<string, unknown>, UrlRules][] = [
  ['a free-text value', (s) => ({ q: s }), none],
  ['a URL key', (s) => ({ url: s }), none],
  ['a link key', (s) => ({ target: s }), none],
  ['an array under a nested key', (s) => ({ options: { mirrors: [s] } }), none],
  ['free text, embedded mode', (s) => ({ body: `Please fetch ${s} and report.` }), embedded],
];

describe('whatever new URL() reads as a non-public host is refused', () => {
  for (const [where, place, rules] of PLACES) {
    it(`in ${where}`, () => {
      let parsed = 0;
      fc.assert(
        fc.property(disguised, (s) => {
          let host: string;
          try {
            host = new URL(s).hostname;
          } catch {
            return; // the parser refuses it too: nothing to reach
          }
          if (!NON_PUBLIC.has(host)) return;
          parsed++;
          const r = checkUrls(place(s), undefined, [], rules);
          if (r.ok) throw new Error(`${JSON.stringify(s)} parses to ${host} but was allowed`);
        }),
        { numRuns: 3000 },
      );
      // The generator must mostly make strings the parser still reads, or the property proves little.
      expect(parsed).toBeGreaterThan(1000);
    });
  }
});
