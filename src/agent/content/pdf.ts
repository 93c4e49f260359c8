import { extractText, getDocumentProxy } from 'unpdf';

export interface PdfText {
  /** Pages in the document. */
  pages: number;
  /** Pages on which any text was found. */
  pagesWithText: number;
  /** Every page's text under a `--- page N of M ---` marker, or a sentence saying there is none. */
  text: string;
}

/**
 * The text of every page, each under a marker the model can cite. Pages without text say so, and a document
 * with no text at all (scans, drawings) says that instead of arriving as an empty string. Throws on bytes that
 * are not a readable PDF (damaged, encrypted); the caller describes those.
 */
export async function pdfToText(bytes: Uint8Array): Promise<PdfText> {
  // A plain Uint8Array copy: pdf.js refuses Node Buffers, and may take ownership of the buffer it is given.
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { totalPages, text } = await extractText(doc, { mergePages: false });
    const pages = text.map((t) => t.trim());
    const pagesWithText = pages.filter((t) => t.length > 0).length;
    if (pagesWithText === 0) {
      const noun = totalPages === 1 ? 'page' : 'pages';
      return { pages: totalPages, pagesWithText, text: `[PDF document, ${totalPages} ${noun}: no extractable text. The pages are probably scanned images or drawings; reading them needs OCR.]` };
    }
    const marked = pages.map((t, i) => `--- page ${i + 1} of ${totalPages} ---\n${t || '(no text on this page)'}`);
    return { pages: totalPages, pagesWithText, text: marked.join('\n\n') };
  } finally {
    await doc.destroy();
  }
}
