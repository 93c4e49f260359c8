/** The agent's content: resource blobs as the model gets them — decoded text, images for vision models, honest descriptors. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { resourceToParts, type ModelPart } from '../../src/agent/content/index.js';
import { b64, images, texts } from '../helpers/agent-content.js';
import { ROOT } from '../helpers/servers.js';

describe('resourceToParts: blobs', () => {
  const tinyPng = Buffer.from(
    readFileSync(path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js'), 'utf8').match(/MCP_TINY_IMAGE = "([^"]+)"/)![1],
    'base64',
  );

  it('decodes text blobs honouring charset and BOM: latin1, UTF-16, JSON, YAML, TOML', async () => {
    const read = async (blob: Uint8Array | string, mimeType?: string, uri = 'test://r'): Promise<ModelPart[]> =>
      resourceToParts([{ uri, blob: b64(blob), ...(mimeType ? { mimeType } : {}) }], { uri, vision: true });
    expect(await read(Buffer.from('Grüße aus Köln', 'latin1'), 'text/plain; charset=ISO-8859-1')).toEqual([{ type: 'text', text: 'Grüße aus Köln' }]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('日本語のテキスト', 'utf16le')]);
    expect(await read(utf16, 'text/plain')).toEqual([{ type: 'text', text: '日本語のテキスト' }]);
    expect(await read('{"a":[1,2]}', 'application/json')).toEqual([{ type: 'text', text: '{"a":[1,2]}' }]);
    expect(await read('a: 1\nb: [x]\n', 'application/yaml')).toEqual([{ type: 'text', text: 'a: 1\nb: [x]\n' }]);
    expect(await read('[server]\nport = 8080\n', 'application/toml')).toEqual([{ type: 'text', text: '[server]\nport = 8080\n' }]);
    expect(await read('export const x = 1;\n', 'text/javascript')).toEqual([{ type: 'text', text: 'export const x = 1;\n' }]);
    // No mimeType: the extension says YAML, and the bytes agree.
    expect(await read('k: v\n', undefined, 'file:///c/config.yml')).toEqual([{ type: 'text', text: 'k: v\n' }]);
  });

  it('never decodes binary as text: gzip labelled text, undeclared binary, text in the wrong charset', async () => {
    const gz = gzipSync('hello hello hello');
    const labelled = await resourceToParts([{ uri: 'test://notes.txt', mimeType: 'text/plain', blob: b64(gz) }], { uri: 'test://notes.txt', vision: true });
    expect(texts(labelled)).toEqual([
      `[Binary resource: application/gzip, ${gz.length} bytes, uri test://notes.txt. Labelled text/plain, but the bytes are application/gzip. A compressed archive; its contents are not listed. A tool that unpacks archives could read them.]`,
    ]);
    const random = Buffer.from([0x00, 0x9f, 0x13, 0x37, 0xc3, 0x28, 0xff, 0x00]);
    expect(texts(await resourceToParts([{ uri: 'db://k/1', blob: b64(random) }], { uri: 'db://k/1', vision: true }))).toEqual([
      '[Binary resource: application/octet-stream, 8 bytes, uri db://k/1. Not text, so it is not shown; it can be passed by URI to a tool that accepts this type.]',
    ]);
    const wrong = await resourceToParts([{ uri: 'test://w', mimeType: 'text/plain; charset=utf-8', blob: b64(Buffer.from('café', 'latin1')) }], { uri: 'test://w', vision: true });
    expect(texts(wrong)[0]).toBe('[Binary resource: text/plain, 4 bytes, uri test://w. Labelled text/plain, but the bytes are not valid utf-8 text. It is not shown, so that nothing binary is read as text.]');
  });

  it('believes a text label when the bytes are text, even if they start like an image or a PDF', async () => {
    const note = 'GIF89a is the animated GIF format; %PDF- starts a PDF.\n';
    const read = async (blob: string, mimeType?: string, uri = 'db://n/1'): Promise<string[]> =>
      texts(await resourceToParts([{ uri, blob: b64(blob), ...(mimeType ? { mimeType } : {}) }], { uri, vision: true }));
    expect(await read(note)).toEqual([note]);
    expect(await read(note, 'text/markdown')).toEqual([note]);
    expect(await read('%PDF- is how a PDF starts.', 'text/plain')).toEqual(['%PDF- is how a PDF starts.']);
    expect(await read('')).toEqual(['[The resource db://n/1 is empty (0 bytes).]']);
  });

  it('sends a PNG without a mimeType as an image part to vision models, sniffed from its bytes', async () => {
    const seen = await resourceToParts([{ uri: 'demo://logo', blob: b64(tinyPng) }], { uri: 'demo://logo', vision: true });
    expect(seen).toEqual([
      { type: 'text', text: `[Image: image/png, ${(tinyPng.length / 1000).toFixed(1)} KB (${tinyPng.length.toLocaleString('en-US')} bytes), uri demo://logo]` },
      { type: 'image', image: b64(tinyPng), mediaType: 'image/png' },
    ]);
    // The extension says text, the bytes say PNG: the bytes win.
    expect(images(await resourceToParts([{ uri: 'file:///x/logo.txt', blob: b64(tinyPng) }], { uri: 'file:///x/logo.txt', vision: true }))).toHaveLength(1);
  });

  it('gives other models a descriptor for the same image, and never sends a mislabelled one', async () => {
    const blind = await resourceToParts([{ uri: 'demo://logo.png', mimeType: 'image/png', blob: b64(tinyPng) }], { uri: 'demo://logo.png', vision: false });
    expect(blind).toEqual([
      { type: 'text', text: `[Binary resource: image/png, ${(tinyPng.length / 1000).toFixed(1)} KB (${tinyPng.length.toLocaleString('en-US')} bytes), uri demo://logo.png. An image; this model cannot view images, so it is not shown.]` },
    ]);
    const fake = await resourceToParts([{ uri: 'demo://fake.png', mimeType: 'image/png', blob: b64('not a png at all') }], { uri: 'demo://fake.png', vision: true });
    expect(images(fake)).toEqual([]);
    expect(texts(fake)[0]).toContain('Labelled image/png, but the bytes are not a PNG, JPEG, GIF or WebP image. It cannot be shown.]');
    const bmp = await resourceToParts([{ uri: 'demo://x.bmp', mimeType: 'image/bmp', blob: b64('BM\u0000\u0000') }], { uri: 'demo://x.bmp', vision: true });
    expect(texts(bmp)[0]).toContain('An image in a format models cannot view (only PNG, JPEG, GIF and WebP)');
  });

  it('labels each item of a read that returns several, and says when there is nothing', async () => {
    const parts = await resourceToParts(
      [{ uri: 'test://dir/a.txt', mimeType: 'text/plain', text: 'A' }, { uri: 'test://dir/b.json', text: '{}' }],
      { uri: 'test://dir', vision: false },
    );
    expect(texts(parts)).toEqual(['[Part 1 of 2: test://dir/a.txt (text/plain)]', 'A', '[Part 2 of 2: test://dir/b.json]', '{}']);
    expect(texts(await resourceToParts([], { uri: 'test://none', vision: false }))).toEqual(['[The resource test://none has no contents.]']);
  });
});
