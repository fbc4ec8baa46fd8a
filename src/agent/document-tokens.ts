import { pdfPages } from '../domain/media-probe';

// What a PDF costs the model: each page is read as text and as an image, "typically 1,500-3,000 tokens per page"
// of text plus the page image (https://platform.claude.com/docs/en/build-with-claude/pdf-support, "Estimate your
// costs"), not its base64 length.

/** Tokens counted for one PDF page (the high end of the documented range). */
export const PDF_PAGE_TOKENS = 3000;

/** Estimated tokens of a base64 PDF: its pages (at least one) at PDF_PAGE_TOKENS each. */
export function documentTokens(base64: string): number {
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return PDF_PAGE_TOKENS;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return Math.max(1, pdfPages(bytes)) * PDF_PAGE_TOKENS;
}
