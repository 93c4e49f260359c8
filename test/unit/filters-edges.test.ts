import { describe, expect, it } from 'vitest';
import { DETECTORS } from '../../src/filters/detectors.js';
import { scanPayload, scanText, type FilterActions } from '../../src/filters/scan.js';

const REDACT: FilterActions = { secret: 'redact', pii: 'redact', injection: 'label' };
const kinds = (text: string) => scanText(text, REDACT).findings.map((f) => f.kind);
const redacted = (text: string) => scanText(text, REDACT).text;

// Each case was missed, or only partly redacted, before issue 9.
describe('content filters at the edges of a value', () => {
  it('finds an AWS secret key that ends in / or +, however its name is written', () => {
    const key = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE/';
    expect(redacted(`aws_secret_access_key = ${key}\nregion = eu-west-1`)).toBe('[REDACTED:aws-secret-access-key]\nregion = eu-west-1');
    expect(kinds(`{"SecretAccessKey": "${key.slice(0, 39)}+"}`)).toEqual(['aws-secret-access-key']);
    expect(kinds(`export MY_AWS_SECRET_ACCESS_KEY="${key}"`)).toEqual(['aws-secret-access-key']);
    expect(redacted(`{\\"secretAccessKey\\":\\"${key}\\"}`)).not.toContain(key);
  });

  it('finds a key id without a digit in text without a digit', () => {
    expect(kinds('the key is AKIAIOSFODNNQEXAMPLE, rotate it')).toEqual(['aws-access-key-id']);
  });

  it('takes tokens that end in - or = whole', () => {
    const google = `AIza${'x'.repeat(34)}-`;
    expect(redacted(`key=${google}&q=1`)).toBe('key=[REDACTED:google-api-key]&q=1');
    expect(redacted(`GITLAB_TOKEN=glpat-${'a'.repeat(19)}- next`)).toBe('GITLAB_TOKEN=[REDACTED:gitlab-token] next');
    expect(redacted(`Authorization: bearer ${'t'.repeat(30)}==`)).toBe('Authorization: [REDACTED:bearer-token]');
  });

  it('finds an unsecured JWT (empty signature) and one whose signature ends in -', () => {
    expect(redacted('t=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0. done')).toBe('t=[REDACTED:jwt] done');
    expect(redacted('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8-')).toBe('[REDACTED:jwt]');
  });

  it('finds connection strings with a driver, or a password and no user', () => {
    expect(kinds('postgresql+asyncpg://app:s3cret@db:5432/prod')).toEqual(['connection-string']);
    expect(redacted('REDIS_URL=redis://:s3cret@cache:6379/0')).toBe('REDIS_URL=[REDACTED:connection-string]/0');
  });

  it('finds an address after a colon or a slash, but not the user of a URL', () => {
    expect(redacted('<a href="mailto:alice@example.com">')).toBe('<a href="mailto:[REDACTED:email]">');
    expect(kinds('people/bob@example.org')).toEqual(['email']);
    expect(kinds('git clone ssh://git@github.com/org/repo.git')).toEqual([]);
  });

  it('tells card numbers from the other digit runs of text', () => {
    expect(redacted('card 4111 1111 1111 1111 123 exp 12/27')).toBe('card [REDACTED:card-number] 123 exp 12/27');
    expect(kinds('id 00000000-0000-0000-0000-000000000000')).toEqual([]); // the nil UUID passes Luhn
    expect(kinds('{"time":1554642900000}')).toEqual([]); // a millisecond timestamp that passes Luhn
    expect(kinds('Troy 9792000000000003, UATP 122000000000003')).toEqual(['card-number', 'card-number']);
  });

  it('ends an IBAN where its country says, and finds the one right after it', () => {
    expect(redacted('BE68 5390 0754 7034 EUR')).toBe('[REDACTED:iban] EUR');
    expect(kinds('BE68 5390 0754 7034 GB82 WEST 1234 5698 7654 32')).toEqual(['iban', 'iban']);
    expect(kinds('XX82 WEST 1234 5698 7654 32')).toEqual([]); // no such country
  });

  it('finds phone numbers written as E.164, with a US trunk 1, or a national trunk 0', () => {
    expect(kinds('sms to +14155552671')).toEqual(['phone']);
    expect(kinds('call 1-800-555-0199')).toEqual(['phone']);
    expect(kinds('ring 07911 123456')).toEqual(['phone']);
    expect(kinds('+33 1 23 45 67 89')).toEqual(['phone']);
  });

  it('ends no pattern in \\b after a class that holds non-word characters', () => {
    // `[…/+]{40}\b` misses a value ending in `/`: there is no word boundary between `/` and a space.
    for (const d of DETECTORS) {
      for (const [, body] of d.pattern.source.matchAll(/\[((?:\\.|[^\]\\])*)\](?:[*+?]|\{\d+(?:,\d*)?\})?(?:\)[*+?]?)*\\b/g)) {
        const rest = body.replace(/\\[dw]/g, '').replace(/(?:\\.|[^\\])-(?:\\.|[^\\])/g, '');
        expect(/^\^|[^A-Za-z0-9_]/.test(rest), `${d.kind}: [${body}] then \\b`).toBe(false);
      }
    }
  });

  it('reports and redacts a value inside another once', () => {
    expect(kinds('mongodb://app:pw@alice@example.com')).toEqual(['connection-string']);
    expect(redacted('mongodb://app:pw@alice@example.com')).toBe('[REDACTED:connection-string]');
  });
});

describe('what scanPayload looks at', () => {
  const key = 'AKIAIOSFODNN7EXAMPLE';

  it('scans data, type and uri outside binary content, and _meta', () => {
    const scanned = scanPayload(
      { content: [{ type: 'resource_link', name: 'db', uri: 'postgres://app:pw@db/prod' }], structuredContent: { data: key, type: key }, _meta: { note: key } },
      REDACT,
    );
    expect(scanned.findings.map((f) => f.kind).sort()).toEqual(['aws-access-key-id', 'aws-access-key-id', 'aws-access-key-id', 'connection-string']);
    expect(JSON.stringify(scanned.value)).not.toMatch(/AKIA|app:pw/);
  });

  it('passes base64 images, audio and blobs through, and scans what only poses as one', () => {
    const base64 = Buffer.from(`${key} alice@example.com`).toString('base64');
    const binary = { content: [{ type: 'image', mimeType: 'image/png', data: base64 }, { type: 'audio', mimeType: 'audio/wav', data: base64 }], contents: [{ uri: 'file:///a', blob: base64 }] };
    expect(scanPayload(binary, REDACT)).toEqual({ value: binary, findings: [] });
    const posing = scanPayload({ content: [{ type: 'image', mimeType: 'image/png', data: `key ${key}` }] }, REDACT);
    expect(posing.findings.map((f) => f.kind)).toEqual(['aws-access-key-id']);
  });
});

describe('what scanPayload looks at, further', () => {
  it('scans keys, and keeps two keys that redact alike', () => {
    const scanned = scanPayload({ structuredContent: { 'alice@example.com': 'admin', 'bob@example.org': 'reader' } }, REDACT);
    expect(scanned.value).toEqual({ structuredContent: { '[REDACTED:email]': 'admin', '[REDACTED:email] #2': 'reader' } });
    expect(scanned.findings.map((f) => f.kind)).toEqual(['email', 'email']);
  });

  it('reads a secret that only its name gives away with its name', () => {
    const credentials = { AccessKeyId: 'ASIAIOSFODNN7EXAMPLE', SecretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', Expiration: '2026-01-01T00:00:00Z' };
    const scanned = scanPayload({ structuredContent: { Credentials: credentials } }, REDACT);
    expect(scanned.value).toEqual({ structuredContent: { Credentials: { AccessKeyId: '[REDACTED:aws-access-key-id]', SecretAccessKey: '[REDACTED:aws-secret-access-key]', Expiration: '2026-01-01T00:00:00Z' } } });
  });

  it('finds the shortest values any detector knows', () => {
    expect(kinds('a@b.co')).toEqual(['email']);
    expect(kinds('[INST]')).toEqual(['chat-template']);
    expect(kinds('[INﬆ]')).toEqual(['chat-template']); // five characters until the ligature is unfolded
  });
});

// Issue 22: the normaliser removed a hand-made list of invisible characters, and scanPayload skipped base64-looking
// values under binary keys in outgoing arguments too.
describe('invisible characters and outgoing binary content', () => {
  const key = 'AKIAIOSFODNN7EXAMPLE';
  /** Every code point with the Unicode property Default_Ignorable_Code_Point: rendered as nothing. */
  const ignorable: number[] = [];
  for (let c = 0; c <= 0x10ffff; c++) if ((c < 0xd800 || c > 0xdfff) && /\p{Default_Ignorable_Code_Point}/u.test(String.fromCodePoint(c))) ignorable.push(c);

  it('finds a secret split by any default-ignorable code point, each one of them', () => {
    expect(ignorable.length).toBeGreaterThan(4000);
    const missed = ignorable.filter((c) => {
      const split = [...key].join(String.fromCodePoint(c));
      return !kinds(`key ${split} here`).includes('aws-access-key-id');
    });
    expect(missed.map((c) => `U+${c.toString(16).toUpperCase()}`)).toEqual([]);
  });

  it('finds secrets and addresses split by the invisibles a hand-made list misses', () => {
    const cases: [string, string][] = [
      ['function application and friends', '\u2061\u2062\u2063\u2064'],
      ['Hangul fillers', '\u115F\u1160\u3164\uFFA0'],
      ['variation selectors', '\uFE00\uFE0F\u{E0100}'],
      ['tag characters', '\u{E0001}\u{E0041}\u{E007F}'],
      ['Mongolian free variation selectors', '\u180B\u180C\u180D\u180F'],
      ['combining grapheme joiner and Khmer vowels', '\u034F\u17B4\u17B5'],
      ['Arabic letter mark, shorthand format controls', '\u061C\u{1BCA0}\u{1BCA3}'],
    ];
    for (const [what, invisibles] of cases) {
      const chars = [...invisibles];
      const pad = (s: string) => [...s].map((ch, i) => ch + chars[i % chars.length]).join('');
      expect(kinds(`key ${pad(key)}`), what).toEqual(['aws-access-key-id']);
      expect(kinds(`mail ${pad('alice@example.com')}`), what).toEqual(['email']);
      expect(redacted(`key ${pad(key)} end`), what).toBe('key [REDACTED:aws-access-key-id] end');
    }
  });

  it('keeps plain ASCII text as it is, and NFKC-composes what an invisible character separated', () => {
    const ascii = 'plain text\twith\u0001controls and AKIA-like words';
    expect(scanText(ascii, REDACT).text).toBe(ascii);
    // e + CGJ + combining acute: with the joiner gone, NFKC composes é.
    expect(redacted(`caf\u0065\u034F\u0301 ${key}`)).toBe('café [REDACTED:aws-access-key-id]');
  });

  it('scans image, audio and blob data of outgoing arguments when asked to, and results as before', () => {
    const args = {
      attachment: { type: 'image', mimeType: 'image/png', data: key },
      voice: { type: 'audio', mimeType: 'audio/wav', data: `${key}==` },
      file: { uri: 'file:///a', blob: key },
    };
    expect(scanPayload(args, REDACT).findings).toEqual([]);
    const outgoing = scanPayload(args, REDACT, { binary: 'scan' });
    expect(outgoing.findings.map((f) => f.kind)).toEqual(['aws-access-key-id', 'aws-access-key-id', 'aws-access-key-id']);
    expect(JSON.stringify(outgoing.value)).not.toContain(key);
  });
});
