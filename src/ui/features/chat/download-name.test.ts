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
  it('keeps a plain file as it is', () => {
    expect(resourceDownload('file:///x/invoice.pdf', 'application/pdf')).toEqual({
      name: 'invoice.pdf',
      type: 'application/pdf',
      isAsText: false,
    });
  });
});
