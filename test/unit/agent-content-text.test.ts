/** The agent's content: the text of PDFs, page by page, and the window a size cap or a requested length puts on text. */
import { describe, expect, it } from 'vitest';
import { pdfToText, resourceToParts, windowText } from '../../src/agent/content/index.js';
import { b64, texts, TWO_PAGES } from '../helpers/agent-content.js';

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
