import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { ImagePart } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  charsetOf,
  decodeText,
  describeBinary,
  isImageMime,
  isTextMime,
  mimeFromUri,
  type ModelPart,
  partsToToolOutput,
  pdfToText,
  resourceToParts,
  sniffMime,
  toolResultToOutput,
  windowText,
} from '../../src/agent/content/index.js';
import { connectDirectEverything } from '../helpers/clients.js';
import { ROOT } from '../helpers/servers.js';

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');
const texts = (parts: ModelPart[]): string[] => parts.flatMap((p) => (p.type === 'text' ? [p.text] : []));
const images = (parts: ModelPart[]): ImagePart[] => parts.filter((p): p is ImagePart => p.type === 'image');
const TWO_PAGES = readFileSync(path.join(ROOT, 'test/fixtures/two-pages.pdf'));

/** A minimal valid PDF with one Helvetica text line per page (how test/fixtures/two-pages.pdf was written). */
function minimalPdf(pages: string[]): Buffer {
  const objs = ['', '<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  for (const [i, text] of pages.entries()) {
    const stream = text ? `BT /F1 18 Tf 72 720 Td (${text}) Tj ET` : '';
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objs.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let n = 1; n < objs.length; n++) {
    offsets[n] = out.length;
    out += `${n} 0 obj\n${objs[n]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objs.length}\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  return Buffer.from(`${out}trailer\n<< /Size ${objs.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1');
}

describe('media types', () => {
  it('knows text types by family, suffix and name, and only the four viewable image formats', () => {
    for (const t of ['text/plain', 'text/markdown; charset=utf-8', 'application/json', 'application/ld+json', 'application/atom+xml', 'application/xml',
      'application/yaml', 'application/x-yaml', 'application/vnd.api+yaml', 'application/toml', 'text/javascript', 'application/javascript', 'image/svg+xml']) {
      expect(isTextMime(t), t).toBe(true);
    }
    for (const t of ['image/png', 'application/octet-stream', 'application/pdf', 'application/gzip', 'audio/wav', '', undefined]) expect(isTextMime(t), String(t)).toBe(false);
    for (const t of ['image/png', 'image/jpeg', 'IMAGE/JPG', 'image/gif', 'image/webp']) expect(isImageMime(t), t).toBe(true);
    for (const t of ['image/svg+xml', 'image/bmp', 'image/tiff', 'application/pdf']) expect(isImageMime(t), t).toBe(false);
  });

  it('reads the charset parameter', () => {
    expect(charsetOf('text/plain; charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(charsetOf('text/html;charset=utf-16le; x=y')).toBe('utf-16le');
    expect(charsetOf('text/plain')).toBeUndefined();
  });

  it('guesses from a URI extension, and calls anything unknown octet-stream', () => {
    expect(mimeFromUri('file:///srv/notes.md')).toBe('text/markdown');
    expect(mimeFromUri('demo://resource/static/document/a%20b.YAML?rev=2#top')).toBe('application/yaml');
    expect(mimeFromUri('s3://bucket/pic.jpg')).toBe('image/jpeg');
    expect(mimeFromUri('s3://bucket/archive.tgz')).toBe('application/gzip');
    expect(mimeFromUri('db://table/42')).toBe('application/octet-stream');
    expect(mimeFromUri('file:///etc/.profile')).toBe('application/octet-stream');
  });

  it('sniffs bytes: magic numbers first, text only when it is valid UTF-8 without control bytes', () => {
    expect(sniffMime(TWO_PAGES)).toBe('application/pdf');
    expect(sniffMime(gzipSync('hello'))).toBe('application/gzip');
    expect(sniffMime(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('application/zip');
    expect(sniffMime(Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00', 'latin1'))).toBe('image/gif');
    expect(sniffMime(Buffer.from('GIF89a, said the note'))).toBe('text/plain; charset=utf-8');
    expect(sniffMime(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffMime(Buffer.from('naïve café\n'))).toBe('text/plain; charset=utf-8');
    expect(sniffMime(Buffer.from('caf\xe9', 'latin1'))).toBe('application/octet-stream');
    expect(sniffMime(Buffer.from('a\u0000b'))).toBe('application/octet-stream');
    expect(sniffMime(Buffer.from([0xff, 0xfe, 0x68, 0x00]))).toBe('text/plain; charset=utf-16le');
  });
});

describe('decodeText', () => {
  it('honours the declared charset: latin1 / iso-8859-1 / windows-1252', () => {
    // 0x80 and 0x93/0x94 are € and curly quotes in windows-1252, which WHATWG uses for all three labels.
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x20, 0x93, 0x78, 0x94]);
    expect(decodeText(bytes, 'iso-8859-1')).toBe('café € “x”');
    expect(decodeText(bytes, 'latin1')).toBe('café € “x”');
    expect(decodeText(bytes, 'windows-1252')).toBe('café € “x”');
    expect(decodeText(bytes, 'utf-8')).toBeUndefined();
    expect(decodeText(bytes)).toBeUndefined();
  });

  it('lets a BOM decide: UTF-16 LE and BE, UTF-8; the BOM itself is not text', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo ✓', 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(decodeText(le)).toBe('héllo ✓');
    expect(decodeText(le, 'utf-8')).toBe('héllo ✓');
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe('héllo ✓');
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('plain')]))).toBe('plain');
    expect(decodeText(Buffer.from('héllo', 'utf16le'), 'utf-16le')).toBe('héllo');
  });

  it('refuses what is not text in the declared charset, and unknown charsets', () => {
    expect(decodeText(gzipSync('hello world'), 'latin1')).toBeUndefined();
    expect(decodeText(Buffer.from('héllo', 'utf16le'), 'utf-8')).toBeUndefined();
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41]))).toBeUndefined();
    expect(decodeText(Buffer.from('hello'), 'x-unknown-charset')).toBeUndefined();
  });
});

describe('describeBinary', () => {
  it('gives type, exact size, URI and a hint', () => {
    expect(describeBinary('application/zip', 12_345, 'demo://a.zip')).toBe(
      '[Binary resource: application/zip, 12.3 KB (12,345 bytes), uri demo://a.zip. A compressed archive; its contents are not listed. A tool that unpacks archives could read them.]',
    );
    expect(describeBinary('application/x-thing; v=1', new Uint8Array(512))).toBe('[Binary resource: application/x-thing, 512 bytes. Not text, so it is not shown; it can be passed by URI to a tool that accepts this type.]');
    expect(describeBinary('audio/wav', 2_500_000, undefined, { subject: 'Audio' })).toMatch(/^\[Audio: audio\/wav, 2\.5 MB \(2,500,000 bytes\)\. Audio; /);
  });
});

describe('PDFs', () => {
  it('extracts each page under a marker', async () => {
    const pdf = await pdfToText(TWO_PAGES);
    expect(pdf).toEqual({
      pages: 2,
      pagesWithText: 2,
      text: '--- page 1 of 2 ---\nSluice test fixture, page one: the quick brown fox.\n\n--- page 2 of 2 ---\nPage two: jumps over the lazy dog.',
    });
  });

  it('says so when there is no text, or when a page has none', async () => {
    expect((await pdfToText(minimalPdf(['', '']))).text).toBe('[PDF document, 2 pages: no extractable text. The pages are probably scanned images or drawings; reading them needs OCR.]');
    expect((await pdfToText(minimalPdf(['Only the first page', '']))).text).toBe('--- page 1 of 2 ---\nOnly the first page\n\n--- page 2 of 2 ---\n(no text on this page)');
  });

  it('arrives through resourceToParts as text with a header; a broken PDF as a descriptor', async () => {
    const parts = await resourceToParts([{ uri: 'file:///docs/two-pages.pdf', mimeType: 'application/pdf', blob: b64(TWO_PAGES) }], { uri: 'file:///docs/two-pages.pdf', vision: true });
    expect(texts(parts)).toEqual([
      `[PDF document: 2 pages, 946 bytes, uri file:///docs/two-pages.pdf; its text follows, page by page]`,
      '--- page 1 of 2 ---\nSluice test fixture, page one: the quick brown fox.\n\n--- page 2 of 2 ---\nPage two: jumps over the lazy dog.',
    ]);
    // No mimeType, no extension: the %PDF header is enough.
    const sniffed = await resourceToParts([{ uri: 'db://doc/7', blob: b64(TWO_PAGES) }], { uri: 'db://doc/7', vision: false });
    expect(texts(sniffed)[1]).toContain('--- page 2 of 2 ---');
    const broken = await resourceToParts([{ uri: 'x://bad.pdf', mimeType: 'application/pdf', blob: b64('%PDF-1.4\nnot really a pdf') }], { uri: 'x://bad.pdf', vision: true });
    expect(texts(broken)).toHaveLength(1);
    expect(texts(broken)[0]).toMatch(/^\[Binary resource: application\/pdf, 25 bytes, uri x:\/\/bad\.pdf\. Its text could not be extracted: .+\. It may be damaged or encrypted\.\]$/);
  });
});

describe('windowText and the size cap', () => {
  const text = `${'a'.repeat(10)}${'é'.repeat(10)}`; // 30 UTF-8 bytes, 20 characters

  it('passes text whole, with no note, when nothing limits it', async () => {
    const big = 'line of text\n'.repeat(20_000);
    expect(windowText(big, { uri: 'u' })).toEqual({ text: big, start: 0, end: big.length, totalBytes: big.length });
    const parts = await resourceToParts([{ uri: 'test://big', mimeType: 'text/plain', text: big }], { uri: 'test://big', vision: false });
    expect(parts).toEqual([{ type: 'text', text: big }]);
  });

  it('cuts at a character boundary and says exactly what was shown and how to read on', () => {
    const first = windowText(text, { uri: 'test://t', maxBytes: 15 });
    expect(first.text).toBe('aaaaaaaaaaéé');
    expect(first.note).toBe(
      '[Cut: this shows bytes 0–14 of 30 (characters 0–12 of 20), because the size cap is 15 bytes. The remaining 16 bytes (8 characters) are not shown. ' +
        'To read on, call read_resource with {"uri":"test://t","offset":14}; "offset" and the optional "length" count UTF-8 bytes of this text.]',
    );
    const second = windowText(text, { uri: 'test://t', maxBytes: 15, offset: 14 });
    expect(second.text).toBe('é'.repeat(7));
    expect(second.note).toContain('bytes 14–28 of 30 (characters 12–19 of 20)');
    expect(second.note).toContain('{"uri":"test://t","offset":28}');
    const last = windowText(text, { uri: 'test://t', maxBytes: 15, offset: 28 });
    expect(last).toEqual({ text: 'é', start: 28, end: 30, totalBytes: 30, note: '[This shows bytes 28–30 of 30 (characters 19–20 of 20): the end of the text.]' });
  });

  it('honours a requested length, snaps a mid-character offset forward, and explains an offset past the end', () => {
    const w = windowText(text, { uri: 'test://t', offset: 3, length: 4, maxBytes: 100 });
    expect(w.text).toBe('aaaa');
    expect(w.note).toContain('because "length" was 4 bytes');
    expect(windowText(text, { uri: 'test://t', offset: 11 }).text).toBe('é'.repeat(9));
    expect(windowText(text, { uri: 'test://t', offset: 99 }).note).toBe('[Nothing to show: offset 99 is at or past the end. The text has 30 bytes (20 characters).]');
    // A cap smaller than one character still makes progress.
    expect(windowText('€uro', { uri: 'u', maxBytes: 1 }).text).toBe('€');
  });

  it('applies to text resources, decoded blobs and PDF text alike', async () => {
    const parts = await resourceToParts([{ uri: 'test://t', mimeType: 'text/plain', text }], { uri: 'test://t', vision: false, maxTextBytes: 15 });
    expect(texts(parts)).toEqual(['aaaaaaaaaaéé', expect.stringMatching(/^\[Cut: this shows bytes 0–14 of 30 /)]);
    const pdf = await resourceToParts([{ uri: 'x://p.pdf', blob: b64(TWO_PAGES), mimeType: 'application/pdf' }], { uri: 'x://p.pdf', vision: false, maxTextBytes: 40 });
    expect(texts(pdf)[1]).toBe('--- page 1 of 2 ---\nSluice test fixture,');
    expect(texts(pdf)[2]).toContain('call read_resource with {"uri":"x://p.pdf","offset":40}');
  });
});

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

describe('with server-everything', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectDirectEverything();
  });
  afterAll(async () => {
    await client?.close();
  });
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

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
