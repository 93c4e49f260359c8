/**
 * Generators of valid-format values for every kind the content filters detect, embedded in random text: shared by
 * the recall test (test/unit/filters-recall.test.ts) and the filters bench (bench/filters.ts), so the recall the
 * bench prints is measured on the very values the test asserts on.
 */
import fc from 'fast-check';
import { IBAN_LENGTHS, luhnValid } from '../../src/filters/checksums.js';
import type { Category } from '../../src/filters/detectors.js';

export interface Sample {
  category: Category;
  kind: string;
  /** The value as it appears in the text. */
  value: string;
  /** What must not survive redaction: the value itself, or its secret part (a password, the key after a label). */
  sensitive: string;
}

export interface Embedded {
  sample: Sample;
  text: string;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const BASE64 = ALNUM + '+/';
const BASE64URL = ALNUM + '-_';

/** A string of exactly `min`..`max` characters drawn from `alphabet`. */
const chars = (alphabet: string, min: number, max = min) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
const digits = (min: number, max = min) => chars(DIGITS, min, max);
const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const base64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');

const secret = (kind: string, value: fc.Arbitrary<string>): fc.Arbitrary<Sample> => value.map((v) => ({ category: 'secret', kind, value: v, sensitive: v }));
const pii = (kind: string, value: fc.Arbitrary<string>): fc.Arbitrary<Sample> => value.map((v) => ({ category: 'pii', kind, value: v, sensitive: v }));

// ---------------------------------------------------------------------------------------------------- secrets

const privateKey = fc
  .record({
    type: pick('', 'RSA ', 'EC ', 'DSA ', 'OPENSSH ', 'ENCRYPTED ', 'PGP '),
    lines: fc.array(chars(BASE64, 64), { minLength: 1, maxLength: 5 }),
    last: chars(BASE64, 4, 60),
    eol: pick('\n', '\r\n', '\\n'), // `\\n`: the key inside JSON-escaped text
  })
  .map(({ type, lines, last, eol }): Sample => {
    const block = type === 'PGP ' ? 'PGP PRIVATE KEY BLOCK' : `${type}PRIVATE KEY`;
    const body = [...lines, `${last}==`].join(eol);
    return { category: 'secret', kind: 'private-key', value: `-----BEGIN ${block}-----${eol}${body}${eol}-----END ${block}-----`, sensitive: lines[0] };
  });

// Key ids are base32 after the prefix; about 3.6% of them have no digit at all.
const awsAccessKeyId = secret('aws-access-key-id', fc.tuple(pick('AKIA', 'ASIA', 'ABIA', 'ACCA'), fc.oneof(chars(UPPER + '234567', 16), chars(UPPER, 16))).map(([p, s]) => p + s));

// The secret key only stands out next to its name: the credentials file, the environment, the JSON of `aws sts`
// and `aws iam create-access-key`, SDK configuration, and JSON-escaped JSON.
const awsSecretAccessKey = fc
  .record({
    name: pick('aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'SecretAccessKey', 'secretAccessKey', 'secret_access_key', 'aws_secret_key', 'AWS_SECRET_KEY', 'AwsSecretAccessKey'),
    assign: pick(' = ', '=', ': ', ':', '": "', '":"', "='", '="', ' = "', ": '", '\\": \\"', '\\":\\"'),
    key: chars(BASE64, 40),
  })
  .map(({ name, assign, key }): Sample => {
    const opening = assign.startsWith('"') ? '"' : assign.startsWith('\\"') ? '\\"' : '';
    return { category: 'secret', kind: 'aws-secret-access-key', value: `${opening}${name}${assign}${key}`, sensitive: key };
  });

const githubToken = secret(
  'github-token',
  fc.oneof(
    fc.tuple(pick('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), chars(ALNUM, 36)).map(([p, s]) => p + s),
    fc.tuple(chars(ALNUM, 22), chars(ALNUM, 59)).map(([a, b]) => `github_pat_${a}_${b}`),
  ),
);

// The legacy form (20 characters) and the routable one (payload, version, CRC; GitLab 17.x on).
const gitlabToken = secret(
  'gitlab-token',
  fc.oneof(
    chars(BASE64URL, 20).map((s) => `glpat-${s}`),
    fc.tuple(chars(BASE64URL, 27, 80), chars(LOWER + DIGITS, 9)).map(([p, crc]) => `glpat-${p}.01.${crc}`),
  ),
);

const slackToken = secret(
  'slack-token',
  fc.oneof(
    fc.tuple(pick('xoxb', 'xoxa', 'xoxo', 'xoxs', 'xoxr'), digits(10, 13), digits(10, 13), chars(ALNUM, 24)).map(([p, a, b, c]) => `${p}-${a}-${b}-${c}`),
    fc.tuple(digits(10, 13), digits(10, 13), digits(10, 13), chars('0123456789abcdef', 32)).map(([a, b, c, d]) => `xoxp-${a}-${b}-${c}-${d}`),
    fc.tuple(digits(10, 13), chars(ALNUM, 60, 140)).map(([a, b]) => `xoxe.xoxp-1-${a}-${b}`),
    fc.tuple(digits(10, 13), chars(ALNUM, 60, 140)).map(([a, b]) => `xoxe-1-${a}-${b}`),
  ),
);

const stripeKey = secret('stripe-key', fc.tuple(pick('sk', 'rk'), pick('live', 'test'), chars(ALNUM, 24, 99)).map(([a, b, c]) => `${a}_${b}_${c}`));

const googleApiKey = secret('google-api-key', chars(BASE64URL, 35).map((s) => `AIza${s}`));

// OpenAI (legacy, project, service-account, admin) and Anthropic keys share the `sk-` prefix.
const openaiKey = secret(
  'openai-key',
  fc.oneof(
    chars(ALNUM, 48).map((s) => `sk-${s}`),
    fc.tuple(pick('proj-', 'svcacct-', 'admin-'), chars(BASE64URL, 100, 164)).map(([p, s]) => `sk-${p}${s}`),
    chars(BASE64URL, 93).map((s) => `sk-ant-api03-${s}AA`),
  ),
);

const npmToken = secret('npm-token', chars(ALNUM, 36).map((s) => `npm_${s}`));

const jwt = fc
  .record({
    alg: pick('HS256', 'RS256', 'ES256', 'EdDSA', 'none'),
    typ: fc.boolean(),
    sub: chars(ALNUM, 1, 24),
    iat: fc.integer({ min: 1_500_000_000, max: 2_000_000_000 }),
    extra: fc.dictionary(chars(LOWER, 1, 8), fc.oneof(chars(ALNUM + ' ', 0, 16), fc.integer())),
    signature: fc.uint8Array({ minLength: 32, maxLength: 256 }),
  })
  .map(({ alg, typ, sub, iat, extra, signature }): Sample => {
    const header = base64url(JSON.stringify(typ ? { alg, typ: 'JWT' } : { alg }));
    const payload = base64url(JSON.stringify({ sub, iat, ...extra }));
    // An unsecured JWT (`alg: none`) has an empty signature and ends in its last dot.
    const value = `${header}.${payload}.${alg === 'none' ? '' : base64url(signature)}`;
    return { category: 'secret', kind: 'jwt', value, sensitive: payload };
  });

// RFC 3986 userinfo: unreserved, percent-encoded and sub-delimiters, and `:` within the password.
const USERINFO = ALNUM + "-._~!$&'()*+,;=";
const userinfoChars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...alphabet) }, { weight: 1, arbitrary: chars('0123456789ABCDEF', 2).map((h) => `%${h}`) }), { minLength: min, maxLength: max }).map((a) => a.join(''));
const host = fc.oneof(
  fc.array(chars(LOWER + DIGITS, 1, 12), { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.')),
  pick('localhost', '[::1]', 'db', 'cluster0.ab1cd.mongodb.net'),
);
const connectionString = fc
  .record({
    scheme: pick('postgres', 'postgresql', 'postgresql+asyncpg', 'postgresql+psycopg2', 'mysql', 'mysql+pymysql', 'mariadb', 'mongodb', 'mongodb+srv', 'redis', 'rediss', 'amqp', 'amqps', 'mssql', 'sqlserver', 'jdbc:postgresql', 'jdbc:mysql'),
    user: userinfoChars(USERINFO, 1, 16),
    emptyUser: fc.boolean(), // redis://:password@host
    password: userinfoChars(USERINFO + ':', 1, 32),
    host,
    port: fc.option(fc.integer({ min: 1, max: 65535 })),
    path: fc.option(chars(LOWER + DIGITS + '_', 1, 12)),
    query: fc.option(pick('?sslmode=require', '?authSource=admin&retryWrites=true', '?ssl=true', '?charset=utf8mb4')),
  })
  .map((c): Sample => {
    const user = c.emptyUser && c.scheme.startsWith('redis') ? '' : c.user;
    const value = `${c.scheme}://${user}:${c.password}@${c.host}${c.port === null ? '' : `:${c.port}`}${c.path === null ? '' : `/${c.path}`}${c.query ?? ''}`;
    return { category: 'secret', kind: 'connection-string', value, sensitive: `:${c.password}@` };
  });

const azureKey = fc
  .record({ storage: fc.boolean(), key: fc.uint8Array({ minLength: 64, maxLength: 64 }), sas: fc.uint8Array({ minLength: 32, maxLength: 32 }), inConnectionString: fc.boolean(), account: chars(LOWER + DIGITS, 3, 24) })
  .map(({ storage, key, sas, inConnectionString, account }): Sample => {
    const k = Buffer.from(storage ? key : sas).toString('base64');
    const pair = storage ? `AccountKey=${k}` : `SharedAccessKey=${k}`;
    const value = !inConnectionString
      ? pair
      : storage
        ? `DefaultEndpointsProtocol=https;AccountName=${account};${pair};EndpointSuffix=core.windows.net`
        : `Endpoint=sb://${account}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;${pair}`;
    return { category: 'secret', kind: 'azure-key', value, sensitive: k };
  });

const bearerToken = fc
  .record({ word: pick('Bearer', 'bearer', 'BEARER'), header: pick('', 'Authorization: ', 'authorization: ', '"Authorization": "'), token: chars(ALNUM + '-._~+/', 20, 200), pad: pick('', '=', '==') })
  .map(({ word, header, token, pad }): Sample => ({ category: 'secret', kind: 'bearer-token', value: `${header}${word} ${token}${pad}`, sensitive: token + pad }));

// ---------------------------------------------------------------------------------------------------- personal data

const emailLocal = fc.array(chars(ALNUM + '_%+-', 1, 12), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.'));
const domainLabel = fc.tuple(chars(LOWER + DIGITS, 1), fc.option(fc.tuple(chars(LOWER + DIGITS + '-', 0, 10), chars(LOWER + DIGITS, 1)))).map(([a, rest]) => a + (rest ? rest[0] + rest[1] : ''));
const email = pii(
  'email',
  fc
    .tuple(emailLocal, fc.array(domainLabel, { minLength: 1, maxLength: 3 }), fc.oneof(pick('com', 'org', 'net', 'io', 'co.uk', 'de', 'fr', 'museum'), chars(LOWER, 2, 10)), fc.boolean())
    .map(([local, labels, tld, upper]) => {
      const address = `${local}@${labels.join('.')}.${tld}`;
      return upper ? address.toUpperCase() : address;
    }),
);

/** Appends the Luhn check digit to `body`. */
export function withLuhn(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
  throw new Error('unreachable');
}
// Issuer prefixes and lengths: Visa, Mastercard (51-55, 2221-2720), Amex, Discover, JCB, Diners, UnionPay.
const CARD_BRANDS: { prefixes: string[]; lengths: number[] }[] = [
  { prefixes: ['4'], lengths: [13, 16, 19] },
  { prefixes: ['51', '52', '53', '54', '55', '2221', '2500', '2720'], lengths: [16] },
  { prefixes: ['34', '37'], lengths: [15] },
  { prefixes: ['6011', '644', '65'], lengths: [16, 19] },
  { prefixes: ['3528', '3589'], lengths: [16, 19] },
  { prefixes: ['36', '38'], lengths: [14] },
  { prefixes: ['62'], lengths: [16, 17, 18, 19] },
];
function groupCard(n: string, sep: string): string {
  if (sep === '') return n;
  const sizes = n.length === 15 ? [4, 6, 5] : n.length === 14 ? [4, 6, 4] : n.length === 16 ? [4, 4, 4, 4] : n.length === 19 ? [4, 4, 4, 4, 3] : [n.length];
  const out: string[] = [];
  let at = 0;
  for (const s of sizes) {
    out.push(n.slice(at, at + s));
    at += s;
  }
  return out.join(sep);
}
// Sometimes followed by what is printed next to a number: its security code or expiry date.
const cardNumber = fc
  .record({ brand: fc.constantFrom(...CARD_BRANDS), which: fc.nat(), rest: digits(19), sep: pick('', ' ', '-'), then: pick('', '', '', ' 123', ' 12/27', ' 0427') })
  .map(({ brand, which, rest, sep, then }): Sample => {
    const prefix = brand.prefixes[which % brand.prefixes.length];
    const length = brand.lengths[(which >> 4) % brand.lengths.length];
    const card = groupCard(withLuhn(prefix + rest.slice(0, length - prefix.length - 1)), sep);
    return { category: 'pii', kind: 'card-number', value: card + then, sensitive: card };
  });

// BBAN shapes (n: digits, a: letters, c: either) of a spread of IBAN countries, short (NO, 15) to long (LC, 32).
const BBAN: Record<string, string> = {
  DE: '18n', GB: '4a14n', FR: '10n11c2n', NL: '4a10n', BE: '12n', ES: '20n', IT: '1a10n12c', CH: '5n12c', NO: '11n', PL: '24n',
  SE: '20n', MT: '4a5n18c', LC: '4a24c', BR: '23n1a1c', SA: '2n18c', AT: '16n', IE: '4a14n', PT: '21n', KW: '4a22c', RU: '14n15c',
};
function ibanCheckDigits(country: string, bban: string): string {
  let rest = 0;
  for (const ch of bban + country + '00') {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return String(98 - rest).padStart(2, '0');
}
const bban = (shape: string) =>
  fc.tuple(...[...shape.matchAll(/(\d+)([nac])/g)].map(([, n, t]) => chars(t === 'n' ? DIGITS : t === 'a' ? UPPER : UPPER + DIGITS, Number(n)))).map((parts) => parts.join(''));
const iban = pii(
  'iban',
  fc
    .constantFrom(...Object.keys(BBAN))
    .chain((country) => fc.tuple(fc.constant(country), bban(BBAN[country]), fc.boolean()))
    .map(([country, b, printed]) => {
      if (b.length + 4 !== IBAN_LENGTHS[country]) throw new Error(`BBAN shape of ${country} is wrong`);
      const electronic = country + ibanCheckDigits(country, b) + b;
      return printed ? electronic.replace(/(.{4})(?=.)/g, '$1 ') : electronic;
    }),
);

// Area 001-899 but 666, group 01-99, serial 0001-9999.
const usSsn = pii(
  'us-ssn',
  fc
    .tuple(fc.integer({ min: 1, max: 899 }).filter((a) => a !== 666), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9999 }))
    .map(([a, g, s]) => `${String(a).padStart(3, '0')}-${String(g).padStart(2, '0')}-${String(s).padStart(4, '0')}`),
);

// HMRC: no D, F, I, Q, U, V first; no D, F, I, O, Q, U, V second; never BG, GB, KN, NK, NT, TN, ZZ; suffix A-D.
const ukNino = pii(
  'uk-nino',
  fc
    .tuple(chars('ABCEGHJKLMNOPRSTWXYZ', 1), chars('ABCEGHJKLMNPRSTWXYZ', 1), digits(6), chars('ABCD', 1), fc.boolean())
    .filter(([a, b]) => !['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(a + b))
    .map(([a, b, d, s, spaced]) => (spaced ? `${a}${b} ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4)} ${s}` : `${a}${b}${d}${s}`)),
);

const nanp = fc.tuple(fc.integer({ min: 200, max: 999 }), fc.integer({ min: 200, max: 999 }), digits(4)).map(([a, e, l]) => [String(a), String(e), l] as const);
const phone = pii(
  'phone',
  fc.oneof(
    fc.tuple(nanp, fc.nat(9)).map(([[a, e, l], f]) =>
      [`(${a}) ${e}-${l}`, `${a}-${e}-${l}`, `${a}.${e}.${l}`, `${a} ${e} ${l}`, `+1 ${a} ${e} ${l}`, `+1-${a}-${e}-${l}`, `+1 (${a}) ${e}-${l}`, `1-${a}-${e}-${l}`, `+1${a}${e}${l}`, `(${a})${e}-${l}`][f],
    ),
    // UK: London, mobile; national with the trunk 0 and international.
    fc.tuple(digits(4), digits(4), digits(3), digits(6), fc.nat(5)).map(([a, b, m, s, f]) =>
      [`+44 20 ${a} ${b}`, `020 ${a} ${b}`, `+44 (0)20 ${a} ${b}`, `+44 7${m} ${s}`, `07${m} ${s}`, `+447${m}${s}`][f],
    ),
    // Germany: Berlin, mobile.
    fc.tuple(digits(7, 8), digits(8), fc.nat(3)).map(([a, m, f]) => [`+49 30 ${a}`, `030 ${a}`, `+49 151 ${m}`, `0151 ${m}`][f]),
    // France (international; the national pairs read like hex dumps), Switzerland, India, Brazil, China.
    fc.tuple(fc.integer({ min: 1, max: 9 }), digits(8), fc.nat(4)).map(([z, d, f]) => {
      const p = d.match(/../g)!.join(' ');
      return [`+33 ${z} ${p}`, `+41 4${z} ${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5, 7)}`, `+91 9${d.slice(0, 4)} ${d.slice(3, 8)}`, `+55 11 9${d.slice(0, 4)}-${d.slice(4)}`, `+86 13${z} ${d.slice(0, 4)} ${d.slice(4)}`][f];
    }),
    // Japan and Australia, national and international.
    fc.tuple(digits(4), digits(4), digits(3), digits(3), fc.nat(5)).map(([a, b, c, d, f]) =>
      [`03-${a}-${b}`, `+81 3-${a}-${b}`, `090-${a}-${b}`, `(02) ${a} ${b}`, `+61 2 ${a} ${b}`, `04${c.slice(0, 2)} ${c} ${d}`][f],
    ),
  ),
);

/** Every kind the detectors know, with the shapes each is expected to catch. */
export const GENERATORS: Readonly<Record<string, fc.Arbitrary<Sample>>> = {
  'private-key': privateKey,
  'aws-access-key-id': awsAccessKeyId,
  'aws-secret-access-key': awsSecretAccessKey,
  'github-token': githubToken,
  'gitlab-token': gitlabToken,
  'slack-token': slackToken,
  'stripe-key': stripeKey,
  'google-api-key': googleApiKey,
  'openai-key': openaiKey,
  'npm-token': npmToken,
  jwt,
  'connection-string': connectionString,
  'azure-key': azureKey,
  'bearer-token': bearerToken,
  email,
  'card-number': cardNumber,
  iban,
  'us-ssn': usSsn,
  'uk-nino': ukNino,
  phone,
};

// ---------------------------------------------------------------------------------------------------- surroundings

const word = chars(LOWER + UPPER, 1, 9);
const noise = fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: chars(ALNUM, 1, 9) }, { weight: 1, arbitrary: pick('the', 'key:', 'token', 'id=', '->', '#', '*', '...', '¿', 'ünïcode', '—') });
const gap = pick(' ', ' ', ' ', '\n', ', ', '. ', '; ', '\t', '\r\n');
/** Filler text; the word next to the value has letters only (see LEFT/RIGHT for why). */
const filler = (digitsToo: boolean, side: 'before' | 'after') =>
  fc.tuple(fc.array(fc.tuple(digitsToo ? noise : word, gap), { maxLength: 6 }), word).map(([words, next]) => {
    const rest = words.map(([w, g]) => (side === 'before' ? w + g : g + w)).join('');
    return side === 'before' ? rest + next : next + rest;
  });

// What may stand right before and after a value. A digit group joined by a space, dot or dash to a number would make
// it a longer number (is `415 555 2671 12` a phone number?), so the word next to the value has no digits.
const LEFT = [' ', '\n', '\t', '/', '+', '=', '"', "'", '`', '(', '[', '{', '<', '>', ':', ',', ';', '|', '\r\n', ' (', '="', ": '", '\\"'];
const RIGHT = [' ', '\n', '\t', '/', '+', '=', '"', "'", '`', ')', ']', '}', '>', '<', ',', ';', '.', '|', '&', '\r\n', '",', "')", '\\"', '. '];

/** A sample in random text: at the very start or end of it, or between any of the delimiters above. */
export const embedded = (sample: fc.Arbitrary<Sample>): fc.Arbitrary<Embedded> =>
  fc
    .record({
      sample,
      atStart: fc.boolean(),
      atEnd: fc.boolean(),
      left: fc.constantFrom(...LEFT),
      right: fc.constantFrom(...RIGHT),
      before: fc.boolean().chain((d) => filler(d, 'before')),
      after: fc.boolean().chain((d) => filler(d, 'after')),
    })
    .map(({ sample, atStart, atEnd, left, right, before, after }) => ({
      sample,
      text: `${atStart ? '' : before + left}${sample.value}${atEnd ? '' : right + after}`,
    }));
