/**
 * The gateway the front-door fuzz tests run against (test/integration/fuzz*.test.ts), with a well-behaved SDK
 * client beside it, and what every door under fuzz shares: the door itself, the per-message time limit and the
 * tally of answers printed after each run.
 */
import type { Client } from '@modelcontextprotocol/client';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { connectV2 } from './clients.js';
import { MAX_BODY_BYTES, type Case } from './fuzz-messages.js';
import { startTestGateway, type TestGateway } from './gateway.js';
import { EVERYTHING, OPEN_ACCESS } from './servers.js';

export const PER_MESSAGE_MS = 5000;

export function fuzzYaml(dataDir: string): string {
  return `listen: 127.0.0.1:0
logLevel: silent
dataDir: ${JSON.stringify(dataDir)}
http:
  maxBodyBytes: ${MAX_BODY_BYTES}
${OPEN_ACCESS}mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`;
}

export const dataDir = () => mkdtempSync(path.join(tmpdir(), 'sluice-fuzz-'));
export const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref())]);

/** The gateway under fuzz, in process, and a well-behaved SDK client on a legacy session. */
export async function startFuzzGateway(): Promise<{ gw: TestGateway; sdk: Client }> {
  const gw = await startTestGateway(fuzzYaml(dataDir()));
  return { gw, sdk: await connectV2(gw.url, 'legacy') };
}

/** The well-behaved client still gets right answers, and nothing reached Object.prototype. */
export async function sdkStillWorks(sdk: Client, label: string): Promise<void> {
  const result = await withTimeout(sdk.callTool({ name: 'everything__echo', arguments: { message: label } }), PER_MESSAGE_MS, `SDK echo at ${label}`);
  expect(result.content, `SDK client at ${label}`).toEqual([{ type: 'text', text: `Echo: ${label}` }]);
  expect(({} as Record<string, unknown>).polluted, 'Object.prototype was polluted').toBeUndefined();
}

/** One door under fuzz: sends one case and reports what was wrong with the answers. */
export interface Door {
  send(c: Case): Promise<string[]>;
  /** The door itself still answers (an echo through it) and is still up. */
  alive(label: string): Promise<void>;
}

/** What the current door's answers were, by kind ("result", "error -32602", …), printed after each run. */
export const answers = new Map<string, number>();
export function count(responses: unknown[]): void {
  for (const r of responses) {
    const error = (r as { error?: { code?: unknown } }).error;
    const key = error ? `error ${String(error.code)}` : 'result';
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
}
