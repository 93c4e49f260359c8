/** The URL rules: which schemes pass, and how allow and deny entries match, unlock and refuse. */
import { describe, expect, it } from 'vitest';
import { checkUrls, type UrlRules } from '../../src/policy/url-rules.js';
import { parseUrlRule } from '../../src/urls/url-rule.js';
import { check, none, refusal } from '../helpers/url-rules.js';

describe('schemes', () => {
  it('passes http, https, ws, wss and data, and refuses others unless an allow entry names the scheme', () => {
    // data: reaches no host (its content is inline), so it needs no entry.
    for (const u of ['http://example.com/', 'https://example.com/', 'ws://example.com/', 'wss://example.com/', 'data:text/plain;base64,aGk=']) expect(refusal(check({ url: u }))).toBe('allowed');
    for (const u of ['gopher://example.com/_x', 'dict://example.com:11211/stat', 'ftp://example.com/f', 'ldap://example.com/', 'javascript:alert(1)']) {
      expect(refusal(check({ url: u }))).toMatch(/uses the scheme [a-z]+:, which is refused unless an allow entry names it/);
    }
    expect(refusal(check({ url: 'gopher://example.com/_x' }, { allow: ['gopher:'], deny: [] }))).toBe('allowed');
    expect(refusal(check({ url: 'ftp://files.example.com/f' }, { allow: ['ftp://files.example.com/**'], deny: [] }))).toBe('allowed');
    expect(refusal(check({ url: 'ftp://other.example.com/f' }, { allow: ['ftp://files.example.com/**'], deny: [] }))).toContain('scheme ftp:');
    // a host entry matches but does not name the scheme
    expect(refusal(check({ url: 'gopher://example.com/' }, { allow: ['example.com'], deny: [] }))).toContain('scheme gopher:');
  });

  it('still judges the host of an allowed non-special scheme, parsed as an http host would be', () => {
    const gopher: UrlRules = { allow: ['gopher:'], deny: [] };
    expect(refusal(check({ url: 'gopher://0x7f.1:70/_SET' }, gopher))).toContain('loopback host (127.0.0.1)');
    expect(refusal(check({ url: 'gopher://%31%36%39.254.169.254/' }, gopher))).toContain('cloud metadata host (169.254.169.254)');
    expect(refusal(check({ url: 'gopher://0x08080808:70/_SET' }, gopher))).toBe('allowed');
  });

  it('leaves file: URLs to the path rules where they see the argument, and refuses them anywhere else', () => {
    expect(refusal(check({ path: 'file:///sandbox/a.txt' }))).toBe('allowed');
    expect(refusal(check({ url: 'file:///etc/passwd' }))).toContain('is a file: URL, which is a path: the path rules govern files');
    expect(refusal(check({ note: 'file:///etc/passwd' }))).toContain('file: URL');
    expect(refusal(check({ url: 'file:///etc/passwd' }, { allow: ['file:'], deny: [] }))).toBe('allowed');
    expect(refusal(check({ path: 'file:///sandbox/a.txt' }, { allow: [], deny: ['file:'] }))).toContain('is denied');
    // a path selector makes the argument a path argument
    expect(checkUrls({ url: 'file:///sandbox/a' }, undefined, [], none, ['url'])).toEqual({ ok: true, urls: [] });
  });
});

describe('allow and deny', () => {
  it('lets deny win over allow, and reports the rule', () => {
    const rules: UrlRules = { allow: ['*.example.com'], deny: ['admin.example.com'] };
    expect(check({ url: 'https://api.example.com/' }, rules)).toEqual({ ok: true, urls: ['https://api.example.com/'] });
    expect(check({ url: 'https://admin.example.com/' }, rules)).toEqual({ ok: false, reason: 'URL https://admin.example.com/ at url is denied', rule: 'admin.example.com' });
    expect(check({ url: 'https://ADMIN.example.com./' }, rules)).toMatchObject({ ok: false, rule: 'admin.example.com' });
  });

  it('requires a match with a non-empty allow list', () => {
    const rules: UrlRules = { allow: ['https://api.example.com/v1/**'], deny: [] };
    const rows: [string, boolean][] = [
      ['https://api.example.com/v1', true],
      ['https://api.example.com/v1/', true],
      ['https://api.example.com/v1/a/b?c=d', true],
      ['HTTPS://API.EXAMPLE.COM:443/v1/x', true],
      ['https://api.example.com/v2/x', false],
      ['https://api.example.com/v10', false],
      ['http://api.example.com/v1/x', false],
      ['https://api.example.com:8443/v1/x', false],
      ['https://api.example.com.evil.example/v1/x', false],
      ['https://evil.example/https://api.example.com/v1/x', false],
      ['https://api.example.com@evil.example/v1/x', false],
      ['https://api.example.com/v1/%2e%2e/admin', false],
      ['https://api.example.com/v1/..%2fadmin', false],
      ['https://api.example.com/v1/..%5cadmin', false],
      ['https://api.example.com/v1/%252e%252e%252fadmin', false],
    ];
    for (const [u, ok] of rows) expect([u, refusal(check({ url: u }, rules))]).toEqual([u, ok ? 'allowed' : expect.stringContaining('outside the allowed URLs')]);
    expect(check({ url: 'https://api.example.com/v2' }, rules)).toMatchObject({ ok: false, rule: 'https://api.example.com/v1/**' });
  });

  it('matches host patterns: exact, subdomains, any, with or without a port', () => {
    const allows = (entry: string, u: string) => refusal(check({ url: u }, { allow: [entry], deny: [] })) === 'allowed';
    expect(allows('example.com', 'https://example.com/x')).toBe(true);
    expect(allows('example.com', 'wss://example.com:9000/x')).toBe(true);
    expect(allows('example.com', 'https://www.example.com/')).toBe(false);
    expect(allows('*.example.com', 'https://a.b.example.com/')).toBe(true);
    expect(allows('*.example.com', 'https://example.com/')).toBe(false);
    expect(allows('*.example.com', 'https://evilexample.com/')).toBe(false);
    expect(allows('example.com:8443', 'https://example.com:8443/')).toBe(true);
    expect(allows('example.com:8443', 'https://example.com/')).toBe(false);
    expect(allows('example.com:443', 'https://example.com/')).toBe(true);
    expect(allows('https://example.com', 'https://example.com/any/path')).toBe(true);
    expect(allows('https://example.com:*/**', 'https://example.com:8443/x')).toBe(true);
    expect(allows('*://example.com/**', 'ws://example.com/x')).toBe(true);
    expect(allows('https://example.com/', 'https://example.com/x')).toBe(false);
    expect(allows('https://example.com/a/*', 'https://example.com/a/b')).toBe(true);
    expect(allows('https://example.com/a/*', 'https://example.com/a/b/c')).toBe(false);
    expect(allows('https://example.com/search?q=*', 'https://example.com/search?q=cats')).toBe(true);
    expect(allows('https://example.com/search?q=*', 'https://example.com/search?r=cats')).toBe(false);
    expect(allows('https://example.com/caf\u00e9/**', 'https://example.com/caf%C3%A9/menu')).toBe(true);
    expect(allows('b\u00fccher.example', 'https://xn--bcher-kva.example/')).toBe(true);
    expect(allows('*', 'https://anything.example/')).toBe(true);
  });

  it('does not let a look-alike host match the name it imitates', () => {
    const rules: UrlRules = { allow: ['example.com'], deny: [] };
    expect(refusal(check({ url: 'https://ex\u0430mple.com/' }, rules))).toBe('URL https://xn--exmple-4nf.com/ at url is outside the allowed URLs');
    expect(refusal(check({ url: 'https://xn--exmple-4nf.com/' }, rules))).toContain('outside the allowed URLs');
    expect(refusal(check({ url: 'https://EXAMPLE.com./' }, rules))).toBe('allowed');
    expect(refusal(check({ url: 'https://ex\u0430mple.com/' }, { allow: [], deny: ['ex\u0430mple.com'] }))).toContain('is denied');
  });

  it('unlocks a non-public host only by an entry that names it', () => {
    const allows = (entries: string[], u: string) => refusal(check({ url: u }, { allow: entries, deny: [] }));
    expect(allows(['localhost'], 'http://localhost:3000/')).toBe('allowed');
    expect(allows(['localhost:3000'], 'http://localhost:3000/')).toBe('allowed');
    expect(allows(['localhost:3000'], 'http://localhost:3001/')).toContain('loopback host');
    expect(allows(['http://localhost:3000/**'], 'http://localhost:3000/api')).toBe('allowed');
    expect(allows(['127.0.0.1'], 'http://127.1/')).toBe('allowed');
    expect(allows(['0x7f.1'], 'http://2130706433/')).toBe('allowed');
    expect(allows(['[::1]'], 'http://[0:0:0:0:0:0:0:1]:8080/')).toBe('allowed');
    expect(allows(['::1'], 'http://[::1]/')).toBe('allowed');
    expect(allows(['10.0.0.0/8'], 'http://10.1.2.3/')).toBe('allowed');
    expect(allows(['10.0.0.0/8'], 'http://192.168.0.1/')).toContain('private host');
    expect(allows(['fc00::/7'], 'http://[fd12::1]/')).toBe('allowed');
    expect(allows(['*.internal'], 'http://db.corp.internal/')).toBe('allowed');
    expect(allows(['*.localhost'], 'http://api.localhost/')).toBe('allowed');
    // wildcards that merely match do not name it
    expect(allows(['*'], 'http://127.0.0.1/')).toContain('loopback host');
    expect(allows(['http://*/**'], 'http://10.0.0.1/')).toContain('private host');
    expect(allows(['http:'], 'http://localhost/')).toContain('loopback host');
    expect(allows(['0.0.0.0/0'], 'http://10.0.0.1/')).toBe('allowed');
  });

  it('unlocks a metadata host only by its exact name or address', () => {
    const allows = (entries: string[], u: string) => refusal(check({ url: u }, { allow: entries, deny: [] }));
    expect(allows(['169.254.0.0/16'], 'http://169.254.1.1/')).toBe('allowed');
    expect(allows(['169.254.0.0/16'], 'http://169.254.169.254/')).toContain('cloud metadata host');
    expect(allows(['0.0.0.0/0'], 'http://169.254.169.254/')).toContain('cloud metadata host');
    expect(allows(['169.254.169.254'], 'http://0xa9fea9fe/')).toBe('allowed');
    expect(allows(['169.254.169.254/32'], 'http://169.254.169.254/')).toBe('allowed');
    expect(allows(['*.internal'], 'http://metadata.google.internal/')).toContain('cloud metadata host');
    expect(allows(['*.google.internal'], 'http://metadata.google.internal/')).toContain('cloud metadata host');
    expect(allows(['metadata.google.internal'], 'http://metadata.google.internal./')).toBe('allowed');
    expect(allows(['fd00::/8'], 'http://[fd00:ec2::254]/')).toContain('cloud metadata host');
    expect(allows(['[fd00:ec2::254]'], 'http://[fd00:ec2::254]/')).toBe('allowed');
  });

  it('matches an address deny entry inside IPv6 forms as well', () => {
    const rules: UrlRules = { allow: [], deny: ['8.8.8.0/24'] };
    for (const u of ['http://8.8.8.8/', 'http://134744072/', 'http://[::ffff:808:808]/', 'http://[64:ff9b::808:808]/', 'http://[2002:808:808::]/']) {
      expect(check({ url: u }, rules)).toMatchObject({ ok: false, rule: '8.8.8.0/24' });
    }
    expect(refusal(check({ url: 'http://8.8.4.4/' }, rules))).toBe('allowed');
    expect(check({ url: 'http://[::ffff:808:808]/' }, { allow: [], deny: ['8.8.8.8'] })).toMatchObject({ ok: false, rule: '8.8.8.8' });
  });

  it('refuses when a rule is not one, and says which', () => {
    for (const bad of ['api-*.example.com', 'https://example.com/a#b', '*.10.0.0.1', 'example.com:99999', '10.0.0.0/33', 'https://user@example.com/', 'a b', 'example.com/path']) {
      expect(() => parseUrlRule(bad)).toThrow(bad);
    }
    expect(check({ url: 'https://example.com/' }, { allow: ['api-*.example.com'], deny: [] })).toEqual({ ok: false, reason: expect.stringContaining('the URL rules cannot be applied: URL rule api-*.example.com') });
    expect(parseUrlRule('gopher:')).toEqual({ text: 'gopher:', scheme: 'gopher' });
    expect(parseUrlRule('[::1]:8080')).toMatchObject({ host: { kind: 'exact', name: '[::1]' }, port: 8080 });
  });

  it('refuses a URL it cannot canonicalise, even with no rules', () => {
    expect(refusal(check({ url: 'http://999.1.1.1/' }))).toBe('URL argument url cannot be checked: not a valid absolute URL');
    expect(refusal(check({ url: 'http://[fe80::1%25eth0]/' }))).toContain('cannot be checked');
  });
});
