/**
 * An upstream that sends hostile method names and ids, and one that really offers entries named constructor,
 * __proto__, toString …: answered, listed and routed as data (see test/helpers/prototype-gateway.ts).
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_NAMES, HOSTILE_TEMPLATE, HOSTILE_URIS } from '../fixtures/prototype-names.js';
import { connectV2, rawSession } from '../helpers/clients.js';
import type { TestGateway } from '../helpers/gateway.js';
import { expectEchoAnswers, expectNoPollution, expectServing, startProtoGateway, statelessRaw, type Answered } from '../helpers/prototype-gateway.js';
import { textOf } from '../helpers/secure-gateway.js';
import { waitFor } from '../helpers/wait.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startProtoGateway();
});
afterAll(async () => gw?.stop());

describe('an upstream that sends hostile method names and ids', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2(gw.url, 'legacy');
  });
  afterAll(async () => client?.close());

  it('answers its requests from right after initialize with JSON-RPC errors, under the ids it chose', async () => {
    const answers = JSON.parse(textOf(await client.callTool({ name: 'proto__report', arguments: {} }))) as Answered[];
    expect(answers.length).toBe(HOSTILE_NAMES.length * 3 + 2);
    for (const { id, method, answer } of answers) {
      expect(answer, `an answer to ${method} (id ${JSON.stringify(id)})`).not.toBeNull();
      expect(answer!.id).toBe(id);
      if (method === 'ping') {
        expect(answer!.result).toEqual({});
        continue;
      }
      expect(answer!.result, method).toBeUndefined();
      if (method === 'sampling/createMessage' || method === 'elicitation/create' || method === 'roots/list') {
        // A request an upstream may send, but no client call was in flight, so nobody could be asked.
        expect(answer!.error, method).toMatchObject({ code: -32603, message: expect.stringMatching(/no client call is in flight/) });
        continue;
      }
      // Anything else is no request an upstream may send (the method table): refused as unknown, whatever the name.
      expect(answer!.error, method).toMatchObject({ code: -32601, message: expect.stringMatching(/^Method not found: /) });
    }
    expect(answers.find((a) => a.id === '__proto__')?.method).toBe('__proto__');
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('answers hostile requests sent during a call with "method not found", over a legacy session', async () => {
    const answers = JSON.parse(textOf(await client.callTool({ name: 'proto__fire', arguments: {} }))) as Answered[];
    expect(answers.length).toBe(HOSTILE_NAMES.length * 3 + 2);
    for (const { id, method, answer } of answers) {
      expect(answer, `an answer to ${method} (id ${JSON.stringify(id)})`).not.toBeNull();
      expect(answer!.id).toBe(id);
      if (method === 'ping') expect(answer!.result).toEqual({});
      else if (method === 'sampling/createMessage') expect(answer!.error).toMatchObject({ code: -32600, message: expect.stringMatching(/"sampling" capability/) });
      else expect(answer!.error, method).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('does the same for a stateless (2026-07-28) call, which would park on a real question', async () => {
    const res = await statelessRaw(gw.url, 'tools/call', '"name":"proto__fire","arguments":{}');
    expect(res.status).toBe(200);
    expect(res.body.result.resultType).toBe('complete');
    const answers = JSON.parse(textOf(res.body.result)) as Answered[];
    for (const { method, answer } of answers) {
      if (method === 'ping') expect(answer?.result).toEqual({});
      else if (method === 'sampling/createMessage') expect(answer?.error?.code).toBe(-32600);
      else expect(answer?.error, method).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
    await expectServing(gw);
    await expectEchoAnswers(gw);
    expectNoPollution();
  });

  it('delivers a resource update for a URI named __proto__ to its subscriber, and no other URI', async () => {
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: '__proto__' });
    // fire sends notifications/resources/updated for every hostile name; only __proto__ is subscribed.
    await client.callTool({ name: 'proto__fire', arguments: {} });
    await waitFor(() => updates.includes('__proto__'), 5000, 'the __proto__ update');
    await new Promise((r) => setTimeout(r, 200));
    expect(updates).toEqual(['__proto__']);
    await client.unsubscribeResource({ uri: '__proto__' });
    await expectServing(gw);
  });
});

describe('entries an upstream really names constructor, __proto__, toString …', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2(gw.url, 'legacy');
  });
  afterAll(async () => client?.close());

  it('lists its tools under their merged names and routes each call to its own tool', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of HOSTILE_NAMES) {
      expect(names).toContain(`proto__${n}`);
      expect(textOf(await client.callTool({ name: `proto__${n}`, arguments: {} }))).toBe(`called ${n}`);
    }
    expect(names.filter((n) => n.startsWith('proto__'))).toHaveLength(HOSTILE_NAMES.length + 4);
    const readyz = (await (await fetch(gw.url.replace(/\/mcp$/, '/readyz'))).json()) as { conflicts: string[] };
    expect(readyz.conflicts).toEqual([]);
  });

  it('lists its prompts under their merged names and gets each one, with a __proto__ argument as data', async () => {
    const names = (await client.listPrompts()).prompts.map((p) => p.name);
    const s = await rawSession(gw.url);
    for (const n of HOSTILE_NAMES) {
      expect(names).toContain(`proto__${n}`);
      const got = await s.call('prompts/get', { name: `proto__${n}`, arguments: JSON.parse('{"__proto__":"x"}') });
      expect(got.body.error, n).toBeUndefined();
      expect(got.body.result.messages[0].content.text).toBe(`prompt ${n} {"__proto__":"x"}`);
    }
    const completion = await s.call('completion/complete', { ref: { type: 'ref/prompt', name: 'proto____proto__' }, argument: { name: '__proto__', value: '' } });
    expect(completion.body.result.completion.values).toEqual([...HOSTILE_NAMES]);
  });

  it('lists its resources by URI and reads each from it, templates included', async () => {
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    for (const uri of HOSTILE_URIS) {
      expect(uris).toContain(uri);
      const read = await client.readResource({ uri });
      expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: `resource ${uri}` }]);
    }
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toContain(HOSTILE_TEMPLATE);
    const read = await client.readResource({ uri: 'proto://constructor/toString' });
    expect(read.contents[0]).toMatchObject({ text: 'template constructor toString' });
    await expectServing(gw);
    expectNoPollution();
  });
});
