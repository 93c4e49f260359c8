import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDirectEverything, connectV2, type Era } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { defaultYaml, makeSandbox } from '../helpers/servers.js';

let gw: TestGateway;
let direct: Client;
let sandbox: string;

beforeAll(async () => {
  sandbox = makeSandbox();
  gw = await startTestGateway(defaultYaml(sandbox));
  direct = await connectDirectEverything();
});

afterAll(async () => {
  await direct?.close();
  await gw?.stop();
});

describe.each<Era>(['legacy', 'modern'])('SDK v2 client through sluice (%s era)', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectV2(gw.url, era);
  });
  afterAll(async () => client?.close());

  it('lists tools of both servers under namespaced names, with annotations and schemas intact', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('files__read_text_file');
    expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);
    const directTools = (await direct.listTools()).tools;
    const echo = directTools.find((t) => t.name === 'echo')!;
    // The stateless revision has no `execution` field on tools; the SDK client itself drops it in that era.
    const { execution, ...echoModern } = echo as typeof echo & { execution?: unknown };
    expect(execution).toBeDefined();
    expect(tools.find((t) => t.name === 'everything__echo')).toEqual({ ...(era === 'modern' ? echoModern : echo), name: 'everything__echo' });
    const structured = directTools.find((t) => t.name === 'get-structured-content')!;
    expect(tools.find((t) => t.name === 'everything__get-structured-content')?.outputSchema).toEqual(structured.outputSchema);
    const write = tools.find((t) => t.name === 'files__write_file')!;
    expect(write.annotations?.destructiveHint).toBe(true);
  });

  it('passes image content and structured content through unchanged', async () => {
    const viaGateway = await client.callTool({ name: 'everything__get-tiny-image', arguments: {} });
    const viaDirect = await direct.callTool({ name: 'get-tiny-image', arguments: {} });
    expect(viaGateway.content).toEqual(viaDirect.content);
    expect((viaGateway.content as { type: string }[]).some((c) => c.type === 'image')).toBe(true);
    const structured = await client.callTool({ name: 'everything__get-structured-content', arguments: { location: 'New York' } });
    const structuredDirect = await direct.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } });
    expect(structured.structuredContent).toEqual(structuredDirect.structuredContent);
  });

  it('passes resource links and embedded resources through', async () => {
    const links = await client.callTool({ name: 'everything__get-resource-links', arguments: { count: 2 } });
    expect((links.content as { type: string }[]).filter((c) => c.type === 'resource_link')).toHaveLength(2);
    const ref = await client.callTool({ name: 'everything__get-resource-reference', arguments: { resourceType: 'Text', resourceId: 3 } });
    expect((ref.content as { type: string }[]).some((c) => c.type === 'resource')).toBe(true);
  });

  it('reports a failing tool as an isError result', async () => {
    const result = await client.callTool({ name: 'files__read_text_file', arguments: { path: '/definitely/not/allowed' } });
    expect(result.isError).toBe(true);
  });

  it('answers an unknown tool with a clear error', async () => {
    await expect(client.callTool({ name: 'nobody__nothing', arguments: {} })).rejects.toThrow(/Unknown tool: nobody__nothing/);
  });

  it('reads a file through server-filesystem', async () => {
    const result = await client.callTool({ name: 'files__read_text_file', arguments: { path: `${sandbox}/hello.txt` } });
    expect(result.content).toEqual([{ type: 'text', text: 'hello from the sandbox\n' }]);
  });

  it('lists and reads resources by their own URIs', async () => {
    const { resources } = await client.listResources();
    const directResources = (await direct.listResources()).resources;
    expect(resources.map((r) => r.uri).sort()).toEqual(directResources.map((r) => r.uri).sort());
    const first = directResources[0];
    const read = await client.readResource({ uri: first.uri });
    expect(read.contents).toEqual((await direct.readResource({ uri: first.uri })).contents);
  });

  it('reads a binary blob from a template byte for byte', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/blob/{resourceId}');
    const uri = 'demo://resource/dynamic/blob/7';
    type Blob = { blob: string; mimeType?: string };
    // server-everything stamps each blob with the time to the second, so the gateway read is bracketed by
    // two direct reads and compared only when both agree (the three happened within one second).
    for (let attempt = 1; ; attempt++) {
      const before = (await direct.readResource({ uri })).contents[0] as Blob;
      const viaGateway = (await client.readResource({ uri })).contents[0] as Blob;
      const after = (await direct.readResource({ uri })).contents[0] as Blob;
      if (before.blob !== after.blob && attempt < 5) continue;
      expect(Buffer.from(viaGateway.blob, 'base64').equals(Buffer.from(before.blob, 'base64'))).toBe(true);
      expect(viaGateway.mimeType).toBe(before.mimeType);
      break;
    }
  });

  it('gets prompts with arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('everything__args-prompt');
    const prompt = await client.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'Paris', state: 'Texas' } });
    const expected = await direct.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris', state: 'Texas' } });
    expect(prompt.messages).toEqual(expected.messages);
  });

  it('routes completions to the server that owns the prompt', async () => {
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'everything__completable-prompt' }, argument: { name: 'department', value: 'En' } });
    expect(result.completion.values).toContain('Engineering');
  });

  it('routes completions for a resource template to the server that declared it', async () => {
    const ref = { type: 'ref/resource' as const, uri: 'demo://resource/dynamic/text/{resourceId}' };
    const result = await client.complete({ ref, argument: { name: 'resourceId', value: '1' } });
    expect(result.completion).toEqual((await direct.complete({ ref, argument: { name: 'resourceId', value: '1' } })).completion);
  });

  it('refuses a resource no server owns', async () => {
    // With one resource server, unknown URIs go to it (it may serve URIs it does not list); it says no.
    await expect(client.readResource({ uri: 'nowhere://nothing' })).rejects.toThrow(/nowhere:\/\/nothing not found/);
  });
});
