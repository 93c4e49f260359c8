/**
 * Generators for the front-door fuzz test (test/integration/fuzz.test.ts): JSON-RPC messages for every method
 * sluice answers — valid, near-valid (one field of the wrong type) and garbage — and the bytes each is sent as.
 * What a correct server must answer to them is the oracle's to say (test/helpers/fuzz-oracle.ts).
 */
import fc from 'fast-check';

export const MODERN = '2026-07-28';
/** The gateway under fuzz gets this body limit, so that a few generated messages cross it. */
export const MAX_BODY_BYTES = 256 * 1024;
export const MAX_NAME_BYTES = 256;
export const MAX_BATCH = 100;

/** Tools that answer at once and touch nothing: the only real tools a fuzzed tools/call may name. */
export const FAST_TOOLS = ['everything__echo', 'everything__get-sum'];
const MADE_UP_TOOLS = ['everything__nope', 'nope', '__proto__', 'constructor', 'everything____proto__', 'everything__constructor', 'toString', 'everything__', '__', 'everything__echo ', 'EVERYTHING__ECHO', 'everything__ech\u043e'];
const PROMPTS = ['everything__simple-prompt', 'everything__args-prompt', 'everything__completable-prompt', 'everything__resource-prompt', 'everything__nope', '__proto__', 'constructor'];
const URIS = ['demo://resource/dynamic/text/1', 'demo://resource/dynamic/blob/2', 'demo://resource/dynamic/text/0', 'demo://resource/dynamic/text/-1', 'demo://nope', 'demo://resource/dynamic/text/%2e%2e', 'nope:', '__proto__', 'constructor'];
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency', 'verbose', 'DEBUG', '', '__proto__'];
const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const PROTO_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
/** Strings that break naive code: NUL, lone surrogates, BOM, bidi override, joiners, combining marks, line separators. */
const ODD = ['\u0000', '\ud800', '\udfff', '\ufeff', '\u202e', '\u200d', 'e\u0301', '\u{1F469}\u200d\u{1F469}\u200d\u{1F467}', '\uffff', '\u2028\u2029', '\ufdfa', '\u{1D54F}', '\u001b[31m', '%00', '${x}', '\\', '"'];

/** ~100 KB, shared: cheap to generate, big enough to matter (three of them cross MAX_BODY_BYTES). */
const HUGE = 'x'.repeat(100_000);
const HUGE_WIDE = '\u00e9'.repeat(50_000);

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = i % 2 === 0 ? [v] : { d: v };
  return v;
}

/** Own `__proto__` / `constructor` keys, as JSON.parse makes them (an object literal would set the prototype). */
const protoObject = (): unknown => JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}');

const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 20 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 2 },
  { arbitrary: fc.constantFrom(...ODD, ...PROTO_NAMES), weight: 3 },
  { arbitrary: fc.constantFrom(HUGE, HUGE_WIDE), weight: 1 },
);
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 2 ** 53 + 1, 1e308, -1e-308));
const smallJson = fc.jsonValue({ maxDepth: 2 });
const dict = fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...PROTO_NAMES)), smallJson, { maxKeys: 4 });

/** A value of (most likely) the wrong type for whatever field it lands in. */
export const weird: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  number,
  text,
  fc.array(smallJson, { maxLength: 4 }),
  dict,
  fc.integer({ min: 50, max: 200 }).map(deep),
  fc.constant(null).map(protoObject),
);

const cursor = fc.option(fc.oneof(fc.constantFrom('bzow', 'bzo1', Buffer.from('o:999999999').toString('base64url'), '', '!!'), text), { nil: undefined });
const progressMeta = fc.option(fc.record({ progressToken: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })) }), { nil: undefined });

type Body = { method: string; params?: Record<string, unknown> };

const toolCall = fc.oneof(
  fc.record({ name: fc.constant('everything__echo'), arguments: fc.record({ message: text }) }),
  fc.record({ name: fc.constant('everything__get-sum'), arguments: fc.record({ a: number, b: number }) }),
  fc.record({ name: fc.constantFrom(...MADE_UP_TOOLS), arguments: dict }, { requiredKeys: ['name'] }),
);

const completionRef = fc.oneof(
  fc.record({ type: fc.constant('ref/prompt'), name: fc.constantFrom(...PROMPTS) }),
  fc.record({ type: fc.constant('ref/resource'), uri: fc.constantFrom('demo://resource/dynamic/text/{resourceId}', ...URIS) }),
  fc.record({ type: fc.constantFrom('ref/nope', '__proto__', 'constructor') }),
);

/** Methods that are not sluice's, named to catch prototype lookups, near-misses and length limits. */
const unknownMethod = fc.oneof(
  fc.constantFrom('tools/teleport', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'tools/call/', 'Tools/List', 'tools/list ', 'rpc.discover', 'sampling/createMessage', 'elicitation/create', 'roots/list', 'tasks/get', 'x'.repeat(256), 'x'.repeat(257), '\u00e9'.repeat(129)),
  fc.string({ minLength: 1, maxLength: 30 }),
);

/** One valid request body (method and params, no id) for every method sluice answers, plus unknown ones. */
const requestBody: fc.Arbitrary<Body> = fc.oneof(
  fc.record({
    method: fc.constant('initialize'),
    params: fc.record({
      protocolVersion: fc.oneof(fc.constantFrom(...LEGACY_VERSIONS, MODERN), text),
      capabilities: fc.constantFrom({}, { roots: { listChanged: true } }, { elicitation: {} }, { sampling: {} }),
      clientInfo: fc.record({ name: text, version: fc.constant('1') }),
    }),
  }),
  fc.record({ method: fc.constant('ping'), params: fc.option(fc.constant({}), { nil: undefined }) }, { requiredKeys: ['method'] }),
  fc.record({ method: fc.constant('server/discover'), params: fc.constant({}) }),
  fc.record({ method: fc.constantFrom('tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'), params: fc.record({ cursor }, { requiredKeys: [] }) }),
  { arbitrary: fc.record({ method: fc.constant('tools/call'), params: toolCall }), weight: 4 },
  fc.record({ method: fc.constant('prompts/get'), params: fc.record({ name: fc.constantFrom(...PROMPTS), arguments: fc.dictionary(fc.constantFrom('city', 'department', 'name', 'resourceType', 'resourceId', '__proto__'), fc.oneof(fc.constantFrom('Text', 'Blob', '1', '2'), text), { maxKeys: 3 }) }, { requiredKeys: ['name'] }) }),
  { arbitrary: fc.record({ method: fc.constantFrom('resources/read', 'resources/subscribe', 'resources/unsubscribe'), params: fc.record({ uri: fc.oneof(fc.constantFrom(...URIS), text) }) }), weight: 2 },
  fc.record({ method: fc.constant('completion/complete'), params: fc.record({ ref: completionRef, argument: fc.record({ name: fc.constantFrom('department', 'name', 'resourceId', 'resourceType'), value: text }) }) }),
  fc.record({ method: fc.constant('logging/setLevel'), params: fc.record({ level: fc.constantFrom(...LEVELS) }) }),
  // Only filters that acknowledge nothing: the stream then ends at once instead of staying open.
  fc.record({ method: fc.constant('subscriptions/listen'), params: fc.record({ notifications: fc.constantFrom({}, { toolsListChanged: false }, { promptsListChanged: false, resourcesListChanged: false }, { resourceSubscriptions: [] }, { somethingElse: true }) }) }),
  { arbitrary: fc.record({ method: unknownMethod, params: fc.option(dict, { nil: undefined }) }, { requiredKeys: ['method'] }), weight: 2 },
);

const notificationBody: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({ method: 'notifications/initialized' }),
  fc.record({ method: fc.constant('notifications/cancelled'), params: fc.record({ requestId: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), weird), reason: text }, { requiredKeys: ['requestId'] }) }),
  fc.record({ method: fc.constant('notifications/progress'), params: fc.record({ progressToken: fc.oneof(fc.integer(), text), progress: number }) }),
  fc.constant({ method: 'notifications/roots/list_changed' }),
  fc.record({ method: fc.constantFrom('notifications/message', 'notifications/fuzz', 'notifications/__proto__', 'notifications/'), params: fc.option(dict, { nil: undefined }) }, { requiredKeys: ['method'] }),
);

export type IdKind = 'int' | 'negative' | 'float' | 'big' | 'string' | 'unicode' | 'max-bytes' | 'too-long' | 'null' | 'object' | 'array' | 'bool';
const GOOD_IDS: IdKind[] = ['int', 'int', 'int', 'negative', 'float', 'big', 'string', 'string', 'unicode', 'max-bytes'];
const BAD_IDS: IdKind[] = ['too-long', 'null', 'object', 'array', 'bool'];

export type Era = 'legacy' | 'modern';

/** One JSON-RPC message before its id is filled in (ids are made unique when it is sent). */
export interface MessageDraft {
  kind: 'message';
  era: Era;
  body: Record<string, unknown>;
  id: IdKind | 'absent';
}

export type Draft =
  | MessageDraft
  | { kind: 'batch'; entries: (MessageDraft | { kind: 'value'; value: unknown })[] }
  /** Text sent as it is; `%ID%` becomes a fresh number. */
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] };

/** The stateless revision's per-request envelope. */
export function envelope(): Record<string, unknown> {
  return { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' } };
}

function draftOf(body: Body, era: Era, id: IdKind | 'absent', meta: Record<string, unknown> | undefined): MessageDraft {
  const params = body.params === undefined ? undefined : { ...body.params };
  const withMeta = era === 'modern' ? { ...(params ?? {}), _meta: { ...envelope(), ...meta } } : meta ? { ...(params ?? {}), _meta: meta } : params;
  return { kind: 'message', era, body: withMeta === undefined ? { jsonrpc: '2.0', method: body.method } : { jsonrpc: '2.0', method: body.method, params: withMeta }, id };
}

const era = fc.constantFrom<Era>('legacy', 'modern');

const validRequest = fc.tuple(requestBody, era, fc.constantFrom(...GOOD_IDS), progressMeta).map(([b, e, id, meta]) => draftOf(b, e, id, meta));
const validNotification = fc.tuple(notificationBody, era).map(([b, e]) => draftOf(b, e, 'absent', undefined));

/** Where a mutation may land: top-level fields, params' fields and one level below (the envelope, arguments, ref). */
function paths(body: Record<string, unknown>): string[][] {
  const out: string[][] = [['jsonrpc'], ['method'], ['params']];
  const params = body.params;
  if (params && typeof params === 'object') {
    for (const [k, v] of Object.entries(params)) {
      out.push(['params', k]);
      if (v && typeof v === 'object' && !Array.isArray(v)) for (const k2 of Object.keys(v)) out.push(['params', k, k2]);
    }
  }
  return out;
}

type Mutation = 'replace' | 'delete' | 'proto-key' | 'bad-id' | 'drop-id';

/** Copies `obj` along `path` and replaces, deletes or adds there; keys are defined, never assigned (`__proto__`). */
function setIn(obj: Record<string, unknown>, path: string[], op: 'replace' | 'delete' | 'proto-key', value: unknown, protoKey: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...obj };
  const [key, ...rest] = path;
  if (rest.length > 0) {
    const inner = copy[key];
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) define(copy, key, setIn(inner as Record<string, unknown>, rest, op, value, protoKey));
    return copy;
  }
  if (op === 'delete') delete copy[key];
  else if (op === 'replace') define(copy, key, value);
  else {
    const inner = copy[key];
    const target = inner && typeof inner === 'object' && !Array.isArray(inner) ? { ...(inner as Record<string, unknown>) } : {};
    define(target, protoKey, value);
    define(copy, key, target);
  }
  return copy;
}

function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A `subscriptions/listen` that asks for something stays open until cancelled: the fuzz only sends ones that
 * acknowledge nothing and end at once (a mutation may turn a `false` into `true`; those are dropped).
 */
function staysOpen(d: MessageDraft): boolean {
  if (d.body.method !== 'subscriptions/listen') return false;
  const wanted = (d.body.params as Record<string, unknown> | undefined)?.notifications;
  if (!isObject(wanted)) return false;
  if (wanted.toolsListChanged === true || wanted.promptsListChanged === true || wanted.resourcesListChanged === true) return true;
  return Array.isArray(wanted.resourceSubscriptions) && wanted.resourceSubscriptions.some((u) => typeof u === 'string');
}

/** A valid message with exactly one thing wrong with it. */
const nearValid = fc
  .tuple(fc.oneof({ arbitrary: validRequest, weight: 4 }, validNotification), fc.nat(), weird, fc.constantFrom<Mutation>('replace', 'replace', 'replace', 'delete', 'proto-key', 'bad-id', 'drop-id'), fc.constantFrom(...BAD_IDS), fc.constantFrom(...PROTO_NAMES))
  .map(([draft, pick, value, op, badId, protoKey]): MessageDraft => {
    if (op === 'bad-id') return { ...draft, id: badId };
    if (op === 'drop-id') return { ...draft, id: 'absent' };
    const all = paths(draft.body);
    return { ...draft, body: setIn(draft.body, all[pick % all.length], op, value, protoKey) };
  })
  .filter((d) => !staysOpen(d));

const GARBAGE_TEXT = [
  '{',
  '{"jsonrpc":"2.0","id":%ID%,"method":',
  "{'jsonrpc':'2.0','id':%ID%,'method':'ping'}",
  'NaN',
  'undefined',
  '[1,2,',
  '{"jsonrpc":"2.0","id":%ID%,"method":"ping",}',
  '\ufeff{"jsonrpc":"2.0","id":%ID%,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
  '{"jsonrpc":"2.0","id":%ID%,"id":"dup-%ID%","method":"ping"}',
  '{"jsonrpc":"2.0","id":%ID%,"method":"ping","method":"tools/list"}',
  '{"jsonrpc":"2.0","id":%ID%,"method":"ping"}{"jsonrpc":"2.0","id":%ID%,"method":"ping"}',
  '{"jsonrpc":"2.0","id":%ID%,"method":"ping","params":{"_meta":{"__proto__":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}',
  '{"jsonrpc":"2.0","id":%ID%,"method":"tools/call","params":{"__proto__":{"name":"everything__echo"},"name":"everything__echo","arguments":{"message":"proto"}}}',
  '{"jsonrpc":"2.0","id":%ID%,"result":{}}',
  '{"jsonrpc":"2.0","id":%ID%,"error":{"code":1,"message":"client error"}}',
  '{"jsonrpc":"2.0","id":%ID%,"error":null}',
  '{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1,2]}',
  '',
  '   ',
  '\t',
  'null',
  '0',
  '"ping"',
  'true',
  '{}',
  '[]',
  '[[]]',
  '[{}]',
  JSON.stringify(Array.from({ length: MAX_BATCH + 1 }, (_, i) => ({ jsonrpc: '2.0', id: `over-%ID%-${i}`, method: 'ping' }))),
  `{"jsonrpc":"2.0","id":%ID%,"method":"ping","params":{"pad":"${'y'.repeat(MAX_BODY_BYTES)}"}}`,
  '['.repeat(200) + ']'.repeat(200),
];

const batchEntry = fc.oneof(
  { arbitrary: validRequest.filter((d) => d.era === 'legacy' || d.body.method !== 'initialize'), weight: 3 },
  validNotification,
  nearValid,
  fc.oneof(smallJson, fc.constant(null).map(protoObject)).map((value) => ({ kind: 'value' as const, value })),
);

const garbage: fc.Arbitrary<Draft> = fc.oneof(
  { arbitrary: fc.constantFrom(...GARBAGE_TEXT).map((t) => ({ kind: 'text' as const, text: t })), weight: 4 },
  fc.string({ unit: 'binary', maxLength: 40 }).map((t) => ({ kind: 'text' as const, text: t })),
  smallJson.map((v) => ({ kind: 'text' as const, text: JSON.stringify(v) })),
  { arbitrary: fc.array(batchEntry, { minLength: 1, maxLength: 6 }).map((entries) => ({ kind: 'batch' as const, entries })), weight: 3 },
  fc.uint8Array({ maxLength: 40 }).map((b) => ({ kind: 'bytes' as const, bytes: Array.from(b) })),
);

/** Every kind of message the fuzz sends, weighted towards the ones that reach handlers. */
export const drafts: fc.Arbitrary<Draft> = fc.oneof({ arbitrary: validRequest, weight: 5 }, { arbitrary: validNotification, weight: 1 }, { arbitrary: nearValid, weight: 5 }, { arbitrary: garbage, weight: 2 });

/** A draft and a number in 0..99 that the HTTP door uses to pick headers and sessions (so that it is seeded too). */
export const cases = fc.record({ draft: drafts, route: fc.nat({ max: 99 }) });
export type Case = { draft: Draft; route: number };

export function makeId(kind: IdKind, n: number): unknown {
  switch (kind) {
    case 'int': return n;
    case 'negative': return -n;
    case 'float': return n + 0.5;
    case 'big': return 1e20 + n * 1e5;
    case 'string': return `f-${n}`;
    case 'unicode': return `\u00efd-${n}-\u202e\u{1F469}\u200d\u{1F469}\u0000\ud800`;
    case 'max-bytes': return padBytes(`m-${n}-`, MAX_NAME_BYTES);
    case 'too-long': return padBytes(`l-${n}-`, MAX_NAME_BYTES + 1);
    case 'null': return null;
    case 'object': return { n };
    case 'array': return [n];
    case 'bool': return n % 2 === 0;
  }
}

function padBytes(prefix: string, bytes: number): string {
  return prefix + 'z'.repeat(bytes - Buffer.byteLength(prefix));
}

function messageValue(d: MessageDraft, next: () => number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const entries = Object.entries(d.body);
  // The id goes right after "jsonrpc", as clients write it; a dropped id is simply not there.
  for (const [k, v] of entries) {
    define(value, k, v);
    if (k === 'jsonrpc' && d.id !== 'absent') define(value, 'id', makeId(d.id, next()));
  }
  if (!('id' in value) && d.id !== 'absent') define(value, 'id', makeId(d.id, next()));
  return value;
}

/** The bytes to send for a draft, with fresh ids from `next`. */
export function materialize(draft: Draft, next: () => number): Buffer {
  switch (draft.kind) {
    case 'message': return Buffer.from(JSON.stringify(messageValue(draft, next)));
    case 'batch': return Buffer.from(JSON.stringify(draft.entries.map((e) => (e.kind === 'value' ? e.value : messageValue(e, next)))));
    case 'text': return Buffer.from(draft.text.replace(/%ID%/g, () => String(next())));
    case 'bytes': return Buffer.from(draft.bytes);
  }
}
