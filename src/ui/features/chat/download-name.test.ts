import { describe, expect, it } from 'vitest';
import { resourceDownload } from './download-name';

describe('the name and type a resource download is saved under', () => {
  it('saves a name that contradicts its type as text, and says so (the red team’s invoice.pdf.html)', () => {
    expect(resourceDownload('file:///../../x/invoice.pdf.html', 'application/pdf')).toEqual({
      name: 'invoice.pdf.html.txt',
      type: 'text/plain',
      isAsText: true,
    });
  });
  it('saves active content by its declared type as text, whatever its name', () => {
    for (const type of ['text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/xml', 'text/javascript'])
      expect(resourceDownload('file:///report.pdf', type)).toEqual({
        name: 'report.pdf.txt',
        type: 'text/plain',
        isAsText: true,
      });
  });
  it('keeps Office documents as they are: their types name XML formats but are zipped files (review)', () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    expect(resourceDownload('file:///report.docx', docx)).toEqual({ name: 'report.docx', type: docx, isAsText: false });
    expect(resourceDownload('file:///sums.xlsx', xlsx)).toEqual({ name: 'sums.xlsx', type: xlsx, isAsText: false });
  });
  it('saves as text a name whose trailing dot a browser would drop, a saved web page, and a type with parameters', () => {
    expect(resourceDownload('file:///invoice.html.', 'application/pdf').name).toBe('invoice.html.txt');
    expect(resourceDownload('file:///page.mhtml', 'application/octet-stream').isAsText).toBe(true);
    expect(resourceDownload('file:///a.bin', 'text/html; charset=utf-8').isAsText).toBe(true);
    expect(resourceDownload('file:///feed', 'application/atom+xml').isAsText).toBe(true);
  });
  it('keeps a name in a non-Latin script, its unsafe characters replaced', () => {
    expect(resourceDownload('file:///docs/отчёт 2026.pdf', 'application/pdf').name).toBe('отчёт_2026.pdf');
    expect(resourceDownload('file:///docs/報告書.pdf', 'application/pdf').name).toBe('報告書.pdf');
  });
  it('keeps a plain file as it is', () => {
    expect(resourceDownload('file:///x/invoice.pdf', 'application/pdf')).toEqual({
      name: 'invoice.pdf',
      type: 'application/pdf',
      isAsText: false,
    });
  });
});
