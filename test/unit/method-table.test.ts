/**
 * Every message that crosses sluice has a policy: the method table (src/policy/methods.ts) names every method
 * and notification the MCP SDK knows, in both directions, with the steps it passes. A method the SDK adds and
 * the table does not name fails here, before a client or an upstream can send it through unchecked.
 */
import * as core from '@modelcontextprotocol/core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/gateway/handlers.js';
import { CLIENT_NOTIFICATIONS, CLIENT_REQUESTS, pipelineOf, UPSTREAM_NOTIFICATIONS, UPSTREAM_REQUESTS, type MessagePolicy } from '../../src/policy/methods.js';
import { STEP_FUNCTIONS } from '../../src/policy/steps.js';
import { ROOT } from '../helpers/servers.js';

type Schema = { options?: Schema[]; shape?: { method?: { value?: unknown } } };

/** The method names a zod union of message schemas (or one message schema) accepts. */
function methodsOf(schema: Schema): string[] {
  if (schema.options) return schema.options.flatMap(methodsOf);
  const value = schema.shape?.method?.value;
  return typeof value === 'string' ? [value] : [];
}

/** Every method literal of every schema the SDK exports: the whole protocol as the SDK knows it. */
function everySdkMethod(): Set<string> {
  const all = new Set<string>();
  for (const value of Object.values(core)) {
    if (value !== null && typeof value === 'object') for (const m of methodsOf(value as Schema)) all.add(m);
  }
  return all;
}

const exported = core as unknown as Record<string, Schema>;
const TABLES = { CLIENT_REQUESTS, CLIENT_NOTIFICATIONS, UPSTREAM_REQUESTS, UPSTREAM_NOTIFICATIONS };

describe('the method table', () => {
  it('names every request and notification of the SDK, in the direction the SDK sends it', () => {
    const missing = (schema: string, table: ReadonlyMap<string, MessagePolicy>) => methodsOf(exported[schema]).filter((m) => !table.has(m));
    expect(methodsOf(exported.ClientRequestSchema).length).toBeGreaterThan(10);
    expect(missing('ClientRequestSchema', CLIENT_REQUESTS)).toEqual([]);
    expect(missing('ClientNotificationSchema', CLIENT_NOTIFICATIONS)).toEqual([]);
    expect(missing('ServerRequestSchema', UPSTREAM_REQUESTS)).toEqual([]);
    expect(missing('ServerNotificationSchema', UPSTREAM_NOTIFICATIONS)).toEqual([]);
  });

  it('names every other method the SDK knows (tasks, …) in a direction that can send it', () => {
    const named = new Set(Object.values(TABLES).flatMap((t) => [...t.keys()]));
    const sdk = everySdkMethod();
    expect(sdk.size).toBeGreaterThan(30);
    expect([...sdk].filter((m) => !named.has(m))).toEqual([]);
    // A request is named as a request and a notification as a notification.
    for (const m of sdk) {
      const isNotification = m.startsWith('notifications/');
      const tables = isNotification ? [CLIENT_NOTIFICATIONS, UPSTREAM_NOTIFICATIONS] : [CLIENT_REQUESTS, UPSTREAM_REQUESTS];
      expect(tables.some((t) => t.has(m)), m).toBe(true);
    }
  });

  it('names nothing the SDK does not know (a typo would be a method nobody sends)', () => {
    const sdk = everySdkMethod();
    for (const [name, table] of Object.entries(TABLES)) expect([...table.keys()].filter((m) => !sdk.has(m)), name).toEqual([]);
  });

  it('has a handler for every client request it carries, and carries every method the dispatcher has a handler for', () => {
    const carried = [...CLIENT_REQUESTS].filter(([, p]) => p.handling !== 'refused').map(([m]) => m);
    // subscriptions/listen is dispatched by the stateless front alone.
    expect(carried.filter((m) => m !== 'subscriptions/listen' && !HANDLERS.has(m))).toEqual([]);
    expect([...HANDLERS.keys()].filter((m) => !CLIENT_REQUESTS.has(m) || CLIENT_REQUESTS.get(m)!.handling === 'refused')).toEqual([]);
  });

  it('runs, for each checked method, a pipeline of steps that exist — with pause, rate limit and a record in every one', () => {
    const checked = [...CLIENT_REQUESTS].filter(([, p]) => p.handling === 'checked').map(([m]) => m);
    expect(checked.sort()).toEqual(['completion/complete', 'prompts/get', 'resources/read', 'resources/subscribe', 'tools/call']);
    for (const m of checked) {
      const steps = pipelineOf(m)!;
      expect(steps.filter((s) => s !== 'execute' && s !== 'record' && !STEP_FUNCTIONS.has(s)), m).toEqual([]);
      for (const must of ['authenticate', 'pause', 'rate-limit', 'resolve', 'information-flow', 'execute', 'record'] as const) expect(steps, `${m} runs ${must}`).toContain(must);
    }
  });

  it('passes content from upstreams through the filters, and answers back to them through information flow', () => {
    for (const m of ['notifications/progress', 'notifications/message']) expect(UPSTREAM_NOTIFICATIONS.get(m)!.steps).toEqual(['content-filter', 'label']);
    for (const m of ['sampling/createMessage', 'elicitation/create']) {
      expect(UPSTREAM_REQUESTS.get(m)!.steps).toEqual(['authenticate', 'pause', 'content-filter', 'label', 'record']);
      expect(UPSTREAM_REQUESTS.get(m)!.answer).toEqual(['information-flow', 'record']);
    }
  });
});

describe('the security page', () => {
  it('says what sluice does with every method the table names (a `tasks/*` row covers the task methods)', () => {
    const page = readFileSync(path.join(ROOT, 'docs/security.md'), 'utf8');
    const section = page.slice(0, page.indexOf('Each step either lets the request continue'));
    const named = new Set(Object.values(TABLES).flatMap((t) => [...t.keys()]));
    const unsaid = [...named].filter((m) => !section.includes(m) && !(m.startsWith('tasks/') && section.includes('tasks/*')) && !(m.endsWith('/list_changed') && section.includes('notifications/*/list_changed')));
    expect(unsaid).toEqual([]);
  });
});
