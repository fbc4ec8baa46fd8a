// Files and resources still being read when the person opens another thread go to the draft of the thread they were
// given in (issue #20's per-thread drafts): never into the box of the thread open by then, and Send there is not held.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { samplePng } from '../../test/fixtures/sample-files';
import { addFiles, createAttachmentDraft, type AttachmentDraftHandle } from './attachment-draft';
import { createDraft, followThreadDrafts, setDraft } from './draft';

const wide = new File([new Uint8Array(samplePng(9000, 100))], 'banner.png', { type: 'image/png' });
const note = new File(['hi'], 'note.txt', { type: 'text/plain' });
const small = new Uint8Array(samplePng(1568, 17));
type Shrunk = Awaited<ReturnType<NonNullable<AttachmentDraftHandle['shrinkImage']>>>;

/** Threads a and b, a open; the banner's shrinking waits for `finish` (a phone photo takes a moment). */
function setUp() {
  let finish: (shrunk: Shrunk) => void = () => {};
  let hasStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (hasStarted = resolve));
  let ids = 0;
  const attachments = createAttachmentDraft(
    () => `att-${++ids}`,
    () => {
      hasStarted();
      return new Promise<Shrunk>((resolve) => (finish = resolve));
    },
  );
  const draft = createDraft();
  const chat = createStore<{ activeThreadId?: string; threads: { id: string }[] }>(() => ({
    activeThreadId: 'a',
    threads: [{ id: 'a' }, { id: 'b' }],
  }));
  const stop = followThreadDrafts(draft, chat, attachments.store);
  const box = () => {
    const { items, errors, reading, shrinking } = attachments.store.getState();
    return { text: draft.getState().text, names: items.map((i) => i.ref.name), errors, reading, shrinking };
  };
  const shrunk: Shrunk = {
    bytes: small,
    mimeType: 'image/webp',
    width: 1568,
    height: 17,
    fromWidth: 9000,
    fromHeight: 100,
  };
  return {
    attachments,
    draft,
    started,
    box,
    stop,
    open: (id: string | undefined) => chat.setState({ activeThreadId: id }),
    remove: (id: string) =>
      chat.setState((s) => ({ activeThreadId: undefined, threads: s.threads.filter((t) => t.id !== id) })),
    finish: () => finish(shrunk),
    failShrink: () => finish(undefined),
  };
}

describe('files still being read when another thread is opened', () => {
  it('land in the draft of the thread they were dropped in, not in the one open when they are read', async () => {
    const t = setUp();
    setDraft(t.draft, 'see the banner');
    const adding = addFiles(t.attachments, [wide, note]);
    await t.started;
    expect(t.box()).toMatchObject({ reading: 2, shrinking: ['banner.png'] });
    t.open('b');
    // Send is not held in b for a's files, and the tray does not name them.
    expect(t.box()).toEqual({ text: '', names: [], errors: [], reading: 0, shrinking: [] });
    t.finish();
    await adding;
    expect(t.box()).toEqual({ text: '', names: [], errors: [], reading: 0, shrinking: [] });
    t.open('a');
    expect(t.box()).toMatchObject({ text: 'see the banner', names: ['banner.png', 'note.txt'], reading: 0 });
    t.stop();
  });

  it('still count as being read when their thread is opened again before they are, and are added there', async () => {
    const t = setUp();
    const adding = addFiles(t.attachments, [wide]);
    await t.started;
    t.open('b');
    t.open('a');
    expect(t.box()).toMatchObject({ names: [], reading: 1, shrinking: ['banner.png'] });
    t.finish();
    await adding;
    expect(t.box()).toMatchObject({ names: ['banner.png'], reading: 0, shrinking: [] });
    t.stop();
  });

  it('that are refused say why in their own thread', async () => {
    const t = setUp();
    const adding = addFiles(t.attachments, [wide]);
    await t.started;
    t.open('b');
    t.failShrink(); // It cannot be made smaller: refused with the limit.
    await adding;
    expect(t.box().errors).toEqual([]);
    t.open('a');
    expect(t.box()).toMatchObject({
      names: [],
      errors: ['banner.png is 9000x100 px; the API takes images up to 8000x8000 px.'],
      reading: 0,
    });
    t.open('b');
    expect(t.box().errors).toEqual([]); // Not shown in b either way.
    t.stop();
  });

  it('of a thread deleted meanwhile go where its draft went (the box), and Send is not held for ever', async () => {
    const t = setUp();
    setDraft(t.draft, 'half written');
    const adding = addFiles(t.attachments, [wide]);
    await t.started;
    t.remove('a'); // Its draft stays in the box for the next thread.
    t.open('b');
    expect(t.box()).toMatchObject({ text: 'half written', reading: 1 });
    t.finish();
    await adding;
    expect(t.box()).toMatchObject({ text: 'half written', names: ['banner.png'], reading: 0 });
    t.stop();
  });
});
