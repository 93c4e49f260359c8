/** The agent's content: media types by name and by bytes, text decoding by charset and BOM, and the descriptor of a binary. */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { charsetOf, decodeText, describeBinary, isImageMime, isTextMime, mimeFromUri, sniffMime } from '../../src/agent/content/index.js';
import { TWO_PAGES } from '../helpers/agent-content.js';

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
