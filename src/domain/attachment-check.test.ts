import { describe, expect, it } from 'vitest';
import { samplePdf, samplePng } from '../../test/fixtures/sample-files';
import { attachmentsProblem, checkAttachment } from './attachment-check';
import { kindOf, MAX_IMAGE_BYTES } from './attachment';
import { imageSize } from './media-probe';

const bytes = (buffer: Buffer) => new Uint8Array(buffer);

describe('attachments are checked against the API limits before they are added', () => {
  it('sorts files by how they are sent', () => {
    expect(kindOf('cat.png', 'image/png')).toBe('image');
    expect(kindOf('report.pdf', 'application/pdf')).toBe('pdf');
    expect(kindOf('notes.md', '')).toBe('text');
    expect(kindOf('data.json', 'application/json')).toBe('text');
    expect(kindOf('photo.heic', 'image/heic')).toBe('other');
    expect(kindOf('slides.pptx', 'application/vnd.ms-powerpoint')).toBe('other');
  });

  it('reads image sizes from PNG, GIF and JPEG headers', () => {
    expect(imageSize(bytes(samplePng(640, 480)))).toEqual({ width: 640, height: 480 });
    const gif = Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1');
    expect(imageSize(bytes(gif))).toEqual({ width: 800, height: 600 });
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 0x01, 0xe0, 0x02, 0x80, 3, 0, 0,
    ]);
    expect(imageSize(bytes(jpeg))).toEqual({ width: 640, height: 480 });
  });

  it('refuses an image over 5 MB encoded, or over 8000 px, naming its size and the limit', () => {
    expect(checkAttachment('cat.png', 'image', bytes(samplePng(64, 64))).problem).toBeUndefined();
    const big = new Uint8Array(MAX_IMAGE_BYTES + 200 * 1024);
    big.set(samplePng(10, 10));
    expect(checkAttachment('huge.png', 'image', big).problem).toBe(
      "huge.png is 3.9 MB; an image can be at most 3.75 MB (5 MB once encoded, the API's limit).",
    );
    expect(checkAttachment('wide.png', 'image', bytes(samplePng(9000, 2))).problem).toBe(
      'wide.png is 9000x2 px; the API takes images up to 8000x8000 px.',
    );
    expect(checkAttachment('fake.png', 'image', new TextEncoder().encode('hello')).problem).toMatch(/not a readable/);
  });

  it('refuses encrypted PDFs and PDFs over 100 pages', () => {
    expect(checkAttachment('a.pdf', 'pdf', bytes(samplePdf(3)))).toEqual({ kind: 'pdf', pages: 3 });
    expect(checkAttachment('locked.pdf', 'pdf', bytes(samplePdf(1, 'x', true))).problem).toBe(
      'locked.pdf is an encrypted or password-protected PDF; the API takes only standard PDFs.',
    );
    expect(checkAttachment('book.pdf', 'pdf', bytes(samplePdf(101))).problem).toBe(
      'book.pdf has 101 pages; the API reads at most 100 pages.',
    );
  });

  it('refuses text that is not UTF-8 or too long', () => {
    expect(checkAttachment('bin.txt', 'text', new Uint8Array([0xff, 0xfe, 0xfd])).problem).toBe(
      'bin.txt is not UTF-8 text.',
    );
    expect(checkAttachment('long.txt', 'text', new TextEncoder().encode('a'.repeat(400_001))).problem).toMatch(
      /has 400,001 characters; a text file can have at most 400,000/,
    );
  });

  it('limits a message to 20 attachments, 24 MB and 100 PDF pages together', () => {
    const one = { kind: 'text' as const, size: 10 };
    expect(attachmentsProblem(Array.from({ length: 20 }, () => one))).toBeUndefined();
    expect(attachmentsProblem(Array.from({ length: 21 }, () => one))).toBe(
      'A message can carry at most 20 attachments.',
    );
    expect(
      attachmentsProblem([
        { kind: 'pdf', size: 1000, pages: 60 },
        { kind: 'pdf', size: 1000, pages: 60 },
      ]),
    ).toMatch(/120 pages together/);
    expect(
      attachmentsProblem([
        { kind: 'pdf', size: 13e6 },
        { kind: 'pdf', size: 13e6 },
      ]),
    ).toMatch(/come to 24\.8 MB/);
  });
});
