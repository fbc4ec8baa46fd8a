import { describe, expect, it } from 'vitest';
import { samplePng } from '../../test/fixtures/sample-files';
import type { AttachmentRef } from '../domain/attachment';
import { attachmentBlocks } from './attachment-blocks';

describe('an attachment as the API takes it', () => {
  it('sends an image with the type its bytes show: a PNG saved as .jpg goes as image/png', () => {
    const ref = {
      id: 'att-1',
      name: 'actually-png.jpg',
      mimeType: 'image/jpeg',
      size: 100,
      kind: 'image',
      source: { type: 'file' },
    } as AttachmentRef;
    const blocks = attachmentBlocks(ref, new Uint8Array(samplePng(8, 8)));
    expect(blocks[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
  });
});
