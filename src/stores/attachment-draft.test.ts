import { describe, expect, it } from 'vitest';
import { samplePng } from '../../test/fixtures/sample-files';
import { addFiles, createAttachmentDraft, type AttachmentDraftHandle } from './attachment-draft';

const file = (name: string, bytes: Buffer, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });
let ids = 0;
const newId = () => `att-${++ids}`;

describe('images over the API’s limits in the composer', () => {
  const wide = samplePng(9000, 100); // over 8000 px on its long edge
  const small = new Uint8Array(samplePng(1568, 17));

  it('are made smaller when the browser can, and the tray says what was done', async () => {
    const asked: string[] = [];
    const shrinkImage: AttachmentDraftHandle['shrinkImage'] = async (_bytes, mimeType) => {
      asked.push(mimeType);
      return { bytes: small, mimeType: 'image/webp', width: 1568, height: 17, fromWidth: 9000, fromHeight: 100 };
    };
    const draft = createAttachmentDraft(newId, shrinkImage);
    await addFiles(draft, [file('banner.png', wide), file('ok.png', samplePng(20, 20))]);
    const { items, errors } = draft.store.getState();
    expect(errors).toEqual([]);
    expect(asked).toEqual(['image/png']); // Only the one over the limits.
    expect(items.map((i) => [i.ref.name, i.ref.size])).toEqual([
      ['banner.png', small.length],
      ['ok.png', samplePng(20, 20).length],
    ]);
    expect(items[0]!.note).toMatch(
      /^banner\.png was made smaller to fit the API's limits, as WebP: 1568 × 17 px, .* \(it was 9000 × 100 px, /,
    );
    expect(items[1]!.note).toBeUndefined();
  });

  it('are not made smaller when unreadable or animated (a GIF would keep one frame): the reason shows instead', async () => {
    let asked = 0;
    const draft = createAttachmentDraft(newId, async () => {
      asked++;
      return undefined;
    });
    const gif = Buffer.alloc(4_500_000);
    Buffer.from('GIF89a').copy(gif);
    gif.writeUInt16LE(10, 6);
    gif.writeUInt16LE(10, 8);
    await addFiles(draft, [file('moving.gif', gif, 'image/gif'), file('garbled.png', Buffer.alloc(4_500_000))]);
    expect(asked).toBe(0);
    expect(draft.store.getState().errors).toEqual([
      expect.stringMatching(/^moving\.gif is 4\.3 MB; an image can be at most 3\.75 MB/),
      expect.stringMatching(/^garbled\.png is 4\.3 MB; an image can be at most 3\.75 MB/),
    ]);
  });

  it('are refused with the limit, as before, when they cannot be made smaller', async () => {
    for (const draft of [createAttachmentDraft(newId), createAttachmentDraft(newId, async () => undefined)]) {
      await addFiles(draft, [file('banner.png', wide)]);
      expect(draft.store.getState().items).toEqual([]);
      expect(draft.store.getState().errors).toEqual([
        'banner.png is 9000x100 px; the API takes images up to 8000x8000 px.',
      ]);
    }
  });

  it('are named in the tray while they are made smaller, and the files count as being read until they are added', async () => {
    let finish: (shrunk: Awaited<ReturnType<NonNullable<AttachmentDraftHandle['shrinkImage']>>>) => void = () => {};
    let hasStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (hasStarted = resolve));
    const draft = createAttachmentDraft(newId, () => {
      hasStarted();
      return new Promise((resolve) => (finish = resolve));
    });
    const adding = addFiles(draft, [file('banner.png', wide), file('note.txt', Buffer.from('hi'), 'text/plain')]);
    expect(draft.store.getState().reading).toBe(2); // From the first moment: a Send now would leave them out.
    await started;
    expect(draft.store.getState()).toMatchObject({ reading: 2, shrinking: ['banner.png'], items: [] });
    finish({ bytes: small, mimeType: 'image/webp', width: 1568, height: 17, fromWidth: 9000, fromHeight: 100 });
    await adding;
    expect(draft.store.getState()).toMatchObject({ reading: 0, shrinking: [] });
    expect(draft.store.getState().items.map((i) => i.ref.name)).toEqual(['banner.png', 'note.txt']);
  });

  it('a shrink that fails still ends the reading: Send is not held for ever', async () => {
    const draft = createAttachmentDraft(newId, () => Promise.reject(new Error('canvas is gone')));
    await expect(addFiles(draft, [file('banner.png', wide)])).rejects.toThrow('canvas is gone');
    expect(draft.store.getState()).toMatchObject({ reading: 0, shrinking: [] });
  });
});
