/** The URL checks' default denials: each trick that reaches a non-public host is refused, and its benign twin passes. */
import { describe, expect, it } from 'vitest';
import { check, refusal } from '../helpers/url-rules.js';

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
