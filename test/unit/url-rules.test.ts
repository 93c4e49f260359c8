import { domainToASCII } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalUrl } from '../../src/urls/canonical-url.js';
import { findUrlArgs } from '../../src/policy/url-args.js';
import { checkUrls, type UrlRules } from '../../src/policy/url-rules.js';
import { parseUrlRule } from '../../src/urls/url-rule.js';

const none: UrlRules = { allow: [], deny: [] };
const check = (args: Record<string, unknown>, rules: UrlRules = none, selectors: string[] = [], schema?: Record<string, unknown>) => checkUrls(args, schema, selectors, rules);
const refusal = (r: ReturnType<typeof checkUrls>) => (r.ok ? 'allowed' : r.reason);
const href = (text: string) => {
  const c = canonicalUrl(text);
  return c.ok ? c.href : `refused: ${c.reason}`;
};
const whatwgHost = (text: string) => {
  try {
    return new URL(text).hostname;
  } catch {
    return 'invalid';
  }
};

describe('canonicalUrl', () => {
  // [input, what the WHATWG parser alone makes of the host, the canonical form]. Where the two differ, sluice adds the step.
  const rows: [string, string, string][] = [
    ['HTTP://Example.COM:80/a/../b?x=1#frag', 'example.com', 'http://example.com/b?x=1'],
    ['https://example.com:443/', 'example.com', 'https://example.com/'],
    ['wss://example.com:443/', 'example.com', 'wss://example.com/'],
    ['http://example.com:8080/', 'example.com', 'http://example.com:8080/'],
    ['http://2852039166/', '169.254.169.254', 'http://169.254.169.254/'],
    ['http://0251.0376.0251.0376/', '169.254.169.254', 'http://169.254.169.254/'],
    ['http://0xa9fea9fe/', '169.254.169.254', 'http://169.254.169.254/'],
    ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254', 'http://169.254.169.254/'],
    ['http://127.1/', '127.0.0.1', 'http://127.0.0.1/'],
    ['http://10.1/', '10.0.0.1', 'http://10.0.0.1/'],
    ['http://0/', '0.0.0.0', 'http://0.0.0.0/'],
    ['http://１６９.２５４.１６９.２５４/', '169.254.169.254', 'http://169.254.169.254/'],
    ['http://127。0。0。1/', '127.0.0.1', 'http://127.0.0.1/'],
    ['http://%31%36%39.254.169.254/', '169.254.169.254', 'http://169.254.169.254/'],
    ['http://[0:0:0:0:0:0:0:1]/', '[::1]', 'http://[::1]/'],
    ['http://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe]', 'http://169.254.169.254/'],
    ['http://[::ffff:a9fe:a9fe]:8080/', '[::ffff:a9fe:a9fe]', 'http://169.254.169.254:8080/'],
    ['http://[::169.254.169.254]/', '[::a9fe:a9fe]', 'http://[::a9fe:a9fe]/'],
    ['http://localhost./', 'localhost.', 'http://localhost/'],
    ['http://LOCALHOST../', 'localhost..', 'http://localhost/'],
    ['http://127.0.0.1../', '127.0.0.1..', 'http://127.0.0.1/'],
    ['http://metadata.google.internal./', 'metadata.google.internal.', 'http://metadata.google.internal/'],
    ['http://allowed.example@evil.example/', 'evil.example', 'http://evil.example/'],
    ['http://user:secret@evil.example/', 'evil.example', 'http://evil.example/'],
    ['http://evil.example#@allowed.example', 'evil.example', 'http://evil.example/'],
    ['http://evil.example?@allowed.example', 'evil.example', 'http://evil.example/?@allowed.example'],
    ['http:\\\\evil.example\\x', 'evil.example', 'http://evil.example/x'],
    ['http:evil.example', 'evil.example', 'http://evil.example/'],
    ['https://ex\u0430mple.com/', 'xn--exmple-4nf.com', 'https://xn--exmple-4nf.com/'],
    ['https://b\u00fccher.example/', 'xn--bcher-kva.example', 'https://xn--bcher-kva.example/'],
    ['http://ex\u200bample.com/', 'example.com', 'http://example.com/'],
    ['gopher://0x7f.1:70/x', '0x7f.1', 'gopher://127.0.0.1/x'],
    ['gopher://EVIL.Example:7070/x', 'EVIL.Example', 'gopher://evil.example:7070/x'],
    ['dict://%31%32%37.0.0.1:11211/', '%31%32%37.0.0.1', 'dict://127.0.0.1:11211/'],
    ['https://ok.example/v1/%2e%2e/admin', 'ok.example', 'https://ok.example/admin'],
    ['file:///etc/passwd', '', 'file:///etc/passwd'],
    ['mailto:someone@example.com', '', 'mailto:someone@example.com'],
  ];
  it.each(rows)('%s', (input, whatwg, canonical) => {
    expect(whatwgHost(input)).toBe(whatwg);
    expect(href(input)).toBe(canonical);
  });

  it('uses the same punycode as node:url domainToASCII, so a look-alike is another host', () => {
    expect(canonicalUrl('https://ex\u0430mple.com/')).toMatchObject({ ok: true, host: domainToASCII('ex\u0430mple.com') });
    expect(domainToASCII('ex\u0430mple.com')).not.toBe('example.com');
  });

  it('records userinfo without keeping it', () => {
    const c = canonicalUrl('http://user:secret@example.com/');
    expect(c).toMatchObject({ ok: true, host: 'example.com', userinfo: true });
    expect(JSON.stringify(c)).not.toContain('secret');
    expect(canonicalUrl('http://example.com/')).toMatchObject({ ok: true, userinfo: false });
  });

  it.each([
    ['http://999.1.1.1/', 'not a valid absolute URL'],
    ['http://1.2.3.4.5/', 'not a valid absolute URL'],
    ['http://[fe80::1%25eth0]/', 'not a valid absolute URL'],
    ['http://％31２７.0.0.1/', 'not a valid absolute URL'],
    ['no scheme here', 'not a valid absolute URL'],
    // WHATWG reads the backslash as a slash (host allowed.example); RFC 3986 parsers (Python, curl) take the host after the @.
    ['http://allowed.example\\@evil.example/', 'parsers disagree on its host (allowed.example or evil.example)'],
    ['gopher://a%2fb/', 'is not a valid host'],
  ])('refuses %s', (input, reason) => {
    expect(href(input)).toContain(reason);
  });
});

describe('default denials: each trick refused, its benign twin passing', () => {
  // [trick, what the refusal must say, benign twin]
  const rows: [string, string, string][] = [
    ['http://2852039166/', 'cloud metadata host (169.254.169.254)', 'http://134744072/'],
    ['http://0251.0376.0251.0376/', 'cloud metadata host (169.254.169.254)', 'http://010.010.010.010/'],
    ['http://0xa9fea9fe/latest/meta-data/', 'cloud metadata host (169.254.169.254)', 'http://0x08080808/'],
    ['http://127.1/', 'loopback host (127.0.0.1)', 'http://8.1/'],
    ['http://10.1/', 'private host (10.0.0.1)', 'http://11.1/'],
    ['http://172.16.5.4/', 'private host (172.16.5.4)', 'http://172.32.5.4/'],
    ['http://192.168.1.1/', 'private host (192.168.1.1)', 'http://192.169.1.1/'],
    ['http://100.64.0.1/', 'private host (100.64.0.1)', 'http://100.128.0.1/'],
    ['http://100.100.100.200/', 'cloud metadata host (100.100.100.200)', 'http://100.200.100.200/'],
    ['http://169.254.1.1/', 'link-local host (169.254.1.1)', 'http://169.255.1.1/'],
    ['http://0.0.0.0:8080/', 'unspecified host (0.0.0.0)', 'http://1.0.0.1:8080/'],
    ['http://0/', 'unspecified host (0.0.0.0)', 'http://16843009/'],
    ['http://%31%36%39.254.169.254/', 'cloud metadata host (169.254.169.254)', 'http://%38.8.8.8/'],
    ['http://１６９.２５４.１６９.２５４/', 'cloud metadata host (169.254.169.254)', 'http://８.８.８.８/'],
    ['http://[::1]/', 'loopback host ([::1])', 'http://[2606:4700::1111]/'],
    ['http://[0:0:0:0:0:0:0:1]/', 'loopback host ([::1])', 'http://[2606:4700:0:0:0:0:0:1111]/'],
    ['http://[::]/', 'unspecified host ([::])', 'http://[2001:4860::]/'],
    ['http://[::ffff:169.254.169.254]/', 'cloud metadata host (169.254.169.254)', 'http://[::ffff:8.8.8.8]/'],
    ['http://[::ffff:a9fe:a9fe]/', 'cloud metadata host (169.254.169.254)', 'http://[::ffff:808:808]/'],
    ['http://[::ffff:7f00:1]/', 'loopback host (127.0.0.1)', 'http://[::ffff:808:1]/'],
    ['http://[::169.254.169.254]/', 'cloud metadata host ([::a9fe:a9fe], compatible 169.254.169.254)', 'http://[2001:db8::a9fe:a9fe]/'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'cloud metadata host ([64:ff9b::a9fe:a9fe], NAT64 169.254.169.254)', 'http://[64:ff9b::808:808]/'],
    ['http://[2002:7f00:1::]/', 'loopback host ([2002:7f00:1::], 6to4 127.0.0.1)', 'http://[2002:808:808::]/'],
    ['http://[fd00:ec2::254]/', 'cloud metadata host ([fd00:ec2::254])', 'http://[2600:1f18::254]/'],
    ['http://[fd12:3456::1]/', 'private host ([fd12:3456::1])', 'http://[2001:4860::1]/'],
    ['http://[fe80::1]/', 'link-local host ([fe80::1])', 'http://[2001:4860::2]/'],
    ['http://localhost/', 'loopback host (localhost)', 'http://localhost.example.com/'],
    ['http://localhost./', 'loopback host (localhost)', 'http://example.com./'],
    ['http://LOCALHOST:3000/', 'loopback host (localhost)', 'http://EXAMPLE.COM:3000/'],
    ['http://api.localhost/', 'loopback host (api.localhost)', 'http://api.example.com/'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'cloud metadata host (metadata.google.internal)', 'http://metadata.google.example/computeMetadata/v1/'],
    ['http://metadata.google.internal./', 'cloud metadata host (metadata.google.internal)', 'http://metadata.google.example./'],
    ['http://intranet/', 'internal name (intranet)', 'http://intranet.example.com/'],
    ['http://printer.local/', 'internal name (printer.local)', 'http://printer.example/'],
    ['http://db.corp.internal/', 'internal name (db.corp.internal)', 'http://db.corp.example/'],
    // userinfo and fragment tricks: the host is what follows the last @ of the authority, which ends at # or ?
    ['http://allowed.example@169.254.169.254/', 'cloud metadata host (169.254.169.254)', 'http://169.254.169.254@allowed.example/'],
    ['http://169.254.169.254#@allowed.example/', 'cloud metadata host (169.254.169.254)', 'http://allowed.example#@169.254.169.254/'],
    ['http://127.0.0.1?@allowed.example/', 'loopback host (127.0.0.1)', 'http://allowed.example?@127.0.0.1/'],
    ['http://a:b@c@127.0.0.1/', 'loopback host (127.0.0.1)', 'http://127.0.0.1:b@c@allowed.example/'],
    // backslashes as WHATWG reads them
    ['http:\\\\169.254.169.254\\latest', 'cloud metadata host (169.254.169.254)', 'http:\\\\8.8.8.8\\latest'],
    ['http:/\\127.0.0.1/', 'loopback host (127.0.0.1)', 'http:/\\8.8.8.8/'],
    ['http://allowed.example\\@169.254.169.254/', 'parsers disagree on its host', 'http://allowed.example/\\@169.254.169.254/'],
    // tabs and newlines inside are dropped by the parser, as by the tool's
    ['http://169.254.\n169.254/', 'cloud metadata host (169.254.169.254)', 'http://8.8.\n8.8/'],
  ];
  it.each(rows)('%j', (trick, reason, twin) => {
    expect(refusal(check({ url: trick }))).toContain(reason);
    expect(refusal(check({ url: twin }))).toBe('allowed');
  });
});

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
