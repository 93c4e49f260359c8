/** canonicalUrl: what the WHATWG parser makes of a URL, the steps sluice adds to it, and what it refuses. */
import { domainToASCII } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalUrl } from '../../src/urls/canonical-url.js';

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
