/** The agent's content: tool results as the model gets them, from server-everything's real tools and from made-up results. */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsToToolOutput, resourceToParts, toolResultToOutput } from '../../src/agent/content/index.js';
import { b64, texts } from '../helpers/agent-content.js';
import { connectDirectEverything } from '../helpers/clients.js';

describe('with server-everything', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectDirectEverything();
  });
  afterAll(async () => {
    await client?.close();
  });
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => (await client.callTool({ name, arguments: args }));

  it('get-tiny-image: an image-data part for vision models, between the texts', async () => {
    const result = await call('get-tiny-image');
    const image = result.content.find((c) => c.type === 'image');
    const { output, attachments, isError } = await toolResultToOutput(result, { vision: true });
    expect(isError).toBe(false);
    expect(attachments).toEqual([]);
    expect(output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: "Here's the image you requested:" },
        { type: 'image-data', data: image?.type === 'image' ? image.data : '', mediaType: 'image/png' },
        { type: 'text', text: 'The image above is the MCP logo.' },
      ],
    });
  });

  it('get-tiny-image: a descriptor for models without vision; attachments for text-only tool messages', async () => {
    const result = await call('get-tiny-image');
    const blind = await toolResultToOutput(result, { vision: false });
    expect(blind.output.type).toBe('text');
    expect(blind.output.type === 'text' && blind.output.value).toMatch(
      /^Here's the image you requested:\n\[Image: image\/png, [\d.]+ KB \([\d,]+ bytes\)\. An image; this model cannot view images, so it is not shown\.\]\nThe image above is the MCP logo\.$/,
    );
    const separate = await toolResultToOutput(result, { vision: true, images: 'separate', source: 'the result of everything__get-tiny-image' });
    expect(separate.output).toEqual({
      type: 'text',
      value: expect.stringMatching(/^Here's the image you requested:\n\[Image 1 \(image\/png, [\d.]+ KB \([\d,]+ bytes\)\) follows in the next user message\.\]\nThe image above is the MCP logo\.$/),
    });
    expect(separate.attachments).toEqual([
      { type: 'text', text: '[Image 1 of the result of everything__get-tiny-image:]' },
      { type: 'image', image: expect.stringMatching(/^iVBORw0KGgo/), mediaType: 'image/png' },
    ]);
  });

  it('gzip-file-as-resource: an embedded gzip blob is an honest descriptor', async () => {
    const data = `data:text/plain;base64,${b64('hello '.repeat(100))}`;
    const result = await call('gzip-file-as-resource', { name: 'hello.txt.gz', data, outputType: 'resource' });
    const blob = result.content[0].type === 'resource' && 'blob' in result.content[0].resource ? result.content[0].resource.blob : '';
    const size = Buffer.from(blob, 'base64').length;
    const { output } = await toolResultToOutput(result, { vision: true });
    expect(output).toEqual({
      type: 'text',
      value:
        '[Embedded resource demo://resource/session/hello.txt.gz (application/gzip):]\n' +
        `[Binary resource: application/gzip, ${size} bytes, uri demo://resource/session/hello.txt.gz. A compressed archive; its contents are not listed. A tool that unpacks archives could read them.]`,
    });
  });

  it('get-resource-links: each link tells the model how to read it, and reading it works', async () => {
    const { output } = await toolResultToOutput(await call('get-resource-links', { count: 2 }), { vision: false });
    expect(output).toEqual({
      type: 'text',
      value:
        'Here are 2 resource links to resources available in this server:\n' +
        '[Resource link "Blob Resource 1" demo://resource/dynamic/blob/1 (text/plain): Resource 1: plaintext resource. To read it, call read_resource with {"uri":"demo://resource/dynamic/blob/1"}.]\n' +
        '[Resource link "Text Resource 2" demo://resource/dynamic/text/2 (text/plain): Resource 2: plaintext resource. To read it, call read_resource with {"uri":"demo://resource/dynamic/text/2"}.]',
    });
    // This one is a base64 blob declared text/plain: it arrives decoded.
    const read = await client.readResource({ uri: 'demo://resource/dynamic/blob/1' });
    const parts = await resourceToParts(read.contents, { uri: 'demo://resource/dynamic/blob/1', vision: false });
    expect(texts(parts)).toEqual([expect.stringMatching(/^Resource 1: This is a base64 blob created at /)]);
  });

  it('a markdown document arrives whole without a cap, and with one says exactly what is missing', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const read = await client.readResource({ uri });
    const full = read.contents[0] && 'text' in read.contents[0] ? read.contents[0].text : '';
    expect(full.length).toBeGreaterThan(1000);
    expect(await resourceToParts(read.contents, { uri, vision: false })).toEqual([{ type: 'text', text: full }]);
    const capped = await resourceToParts(read.contents, { uri, vision: false, maxTextBytes: 1000 });
    const total = Buffer.byteLength(full);
    const shown = texts(capped)[0];
    expect(Buffer.from(full).subarray(0, Buffer.byteLength(shown)).toString()).toBe(shown);
    expect(texts(capped)[1]).toMatch(new RegExp(`^\\[Cut: this shows bytes 0–${Buffer.byteLength(shown).toLocaleString('en-US')} of ${total.toLocaleString('en-US')} .*because the size cap is 1,000 bytes\\.`));
    expect(texts(capped)[1]).toContain(`call read_resource with {"uri":"${uri}","offset":${Buffer.byteLength(shown)}}`);
  });

  it('get-structured-content: the JSON text block already carries it, so it is not repeated', async () => {
    const result = await call('get-structured-content', { location: 'Chicago' });
    expect(result.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    const { output } = await toolResultToOutput(result, { vision: false });
    expect(output).toEqual({ type: 'text', value: JSON.stringify(result.structuredContent) });
  });
});

describe('toolResultToOutput', () => {
  it('adds structuredContent as labelled JSON when no text block carries it', async () => {
    const result: CallToolResult = { content: [{ type: 'text', text: 'Found 2 users.' }], structuredContent: { users: [{ id: 1 }, { id: 2 }] } };
    expect((await toolResultToOutput(result, { vision: false })).output).toEqual({ type: 'text', value: 'Found 2 users.\nStructured output (JSON):\n{"users":[{"id":1},{"id":2}]}' });
  });

  it('keeps isError, naming any image instead of sending it', async () => {
    const result: CallToolResult = { isError: true, content: [{ type: 'text', text: 'disk full' }] };
    expect(await toolResultToOutput(result, { vision: true })).toEqual({ output: { type: 'error-text', value: 'disk full' }, attachments: [], isError: true });
    const withImage = await partsToToolOutput([{ type: 'text', text: 'failed' }, { type: 'image', image: b64(new Uint8Array(2000)), mediaType: 'image/png' }], { isError: true });
    expect(withImage.output).toEqual({ type: 'error-text', value: 'failed\n[Image 1 (image/png, 2.0 KB (2,000 bytes)): not shown, as the tool reported an error.]' });
  });

  it('embeds text resources like reads, describes audio, and names unknown block types', async () => {
    const result = {
      content: [
        { type: 'resource', resource: { uri: 'file:///r/notes.md', mimeType: 'text/markdown', text: '# Notes' } },
        { type: 'audio', data: b64(new Uint8Array(3000)), mimeType: 'audio/wav' },
        { type: 'hologram', data: 'x' },
      ],
    } as unknown as CallToolResult;
    const { output } = await toolResultToOutput(result, { vision: true });
    expect(output).toEqual({
      type: 'text',
      value:
        '[Embedded resource file:///r/notes.md (text/markdown):]\n# Notes\n' +
        '[Audio: audio/wav, 3.0 KB (3,000 bytes). Audio; it cannot be played here. A transcription tool could turn it into text.]\n' +
        '[Content of type "hologram" that this agent cannot show.]',
    });
    expect((await toolResultToOutput({ content: [] }, { vision: true })).output).toEqual({ type: 'text', value: '(The tool returned no content.)' });
  });

  it('corrects an image block whose mimeType contradicts its bytes, and refuses one that is no image', async () => {
    const gif = Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;', 'latin1');
    const { output } = await toolResultToOutput({ content: [{ type: 'image', data: b64(gif), mimeType: 'image/png' }] }, { vision: true });
    expect(output).toEqual({ type: 'content', value: [{ type: 'image-data', data: b64(gif), mediaType: 'image/gif' }] });
    const bad = await toolResultToOutput({ content: [{ type: 'image', data: b64('<svg/>'), mimeType: 'image/png' }] }, { vision: true });
    expect(bad.output).toEqual({ type: 'text', value: '[Image: image/png, 6 bytes. The bytes are not a PNG, JPEG, GIF or WebP image. It cannot be shown.]' });
  });
});
