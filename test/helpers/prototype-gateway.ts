/**
 * For the test/adversarial/prototype-names-*.test.ts files. Names from clients, upstreams and token files are data:
 * `constructor`, `toString`, `__proto__` and friends must be unknown names (or, when an upstream really offers them,
 * names like any other) — never a prototype lookup, a crash or a wrong route. The gateway runs in the test's
 * process, so a polluted prototype there is a polluted gateway: expectNoPollution checks for one.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { postRaw } from './clients.js';
import { startTestGateway, type TestGateway } from './gateway.js';
import { textOf } from './secure-gateway.js';
import { EVERYTHING, OPEN_ACCESS, ROOT } from './servers.js';

export const PROTO_SERVER = path.join(ROOT, 'test/fixtures/prototype-server.ts');
export const MODERN = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
export const ENVELOPE_JSON = JSON.stringify(ENVELOPE).slice(1, -1);

export type Rpc = { jsonrpc: '2.0'; id: unknown; result?: any; error?: { code: number; message: string; data?: unknown } };
export interface Answered {
  id: string | number;
  method: string;
  answer: Rpc | null;
}

/** The value of an own property, or undefined: `x.__proto__` would read the prototype instead. */
export function own(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? Object.getOwnPropertyDescriptor(value, key)?.value : undefined;
}

// ---- no pollution --------------------------------------------------------------------------------------------

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype];
const shapeOf = () => PROTOTYPES.map((p) => Reflect.ownKeys(p).map(String).sort().join(','));
const shapeBefore = shapeOf();

export function expectNoPollution(): void {
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as { constructor: unknown }).constructor).toBe(Object);
  expect((Object as unknown as { prototype: Record<string, unknown> }).prototype.polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect(shapeOf()).toEqual(shapeBefore);
}

// ---- wire helpers --------------------------------------------------------------------------------------------

/** A stateless (2026-07-28) request as raw JSON text; `paramsJson` is the inside of the params object. */
export async function statelessRaw(url: string, method: string, paramsJson: string, headers: Record<string, string> = {}) {
  const body = `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":{${paramsJson}${paramsJson ? ',' : ''}"_meta":{${ENVELOPE_JSON}}}}`;
  const res = await postRaw(url, body, { 'mcp-protocol-version': MODERN, accept: 'application/json', ...headers });
  return { status: res.status, body: (res.text ? res.json() : undefined) as Rpc };
}

export async function expectServing(gw: TestGateway): Promise<void> {
  const base = gw.url.replace(/\/mcp$/, '');
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const ready = await fetch(`${base}/readyz`);
  const status = (await ready.json()) as { upstreams: { name: string; state: string }[] };
  expect(status.upstreams.map((u) => `${u.name}:${u.state}`)).toEqual(['everything:ready', 'proto:ready']);
  expect(ready.status).toBe(200);
}

export async function expectEchoAnswers(gw: TestGateway, message = 'still serving'): Promise<void> {
  const echo = await statelessRaw(gw.url, 'tools/call', `"name":"everything__echo","arguments":{"message":${JSON.stringify(message)}}`);
  expect(echo.status).toBe(200);
  expect(echo.body.error).toBeUndefined();
  expect(textOf(echo.body.result)).toContain(message);
}

/** The gateway in front of the fixture (prefix proto) and server-everything, open to every client. */
export function startProtoGateway(): Promise<TestGateway> {
  return startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
${OPEN_ACCESS}mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
  proto:
    command: node
    args: [--import, tsx, ${JSON.stringify(PROTO_SERVER)}]
`);
}
