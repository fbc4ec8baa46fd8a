// A message with attachments that could not be stored goes back into the draft of the thread it was written in; one
// that was stored does not come back, even when the person opened another thread while its answer ran.
import { describe, expect, it } from 'vitest';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AttachmentRef } from '../domain/attachment';
import { StorageQuotaError } from '../domain/errors';
import { createAttachmentDraft, type PendingAttachment } from './attachment-draft';
import type { ChatActions, ChatStore } from './chat-store';
import { createDraft, followThreadDrafts, setDraft, type DraftStore } from './draft';
import { NOT_SENT_ELSEWHERE, sendWithAttachments } from './send-with-attachments';

const photo: PendingAttachment = {
  ref: { id: 'att-1', name: 'photo.png', mimeType: 'image/png', size: 3, kind: 'image' } as AttachmentRef,
  blob: new Blob(['png']),
};

interface FakeChatState {
  activeThreadId: string | undefined;
  threads: { id: string }[];
  messages: { attachments?: AttachmentRef[] }[];
}

/** Threads a and b, a open; `turn` plays what happens between Send and the end of the turn, `isStored` its answer. */
function setUp(turn: (chat: StoreApi<FakeChatState>, draft: DraftStore) => void, isStored: boolean) {
  const chat = createStore<FakeChatState>(() => ({
    activeThreadId: 'a',
    threads: [{ id: 'a' }, { id: 'b' }],
    messages: [],
  }));
  const draft = createDraft();
  const attachments = createAttachmentDraft();
  const stop = followThreadDrafts(draft, chat, attachments.store);
  const actions = {
    send: () => {
      turn(chat, draft);
      return Promise.resolve(isStored);
    },
  } as unknown as ChatActions;
  const open = (id: string) => chat.setState({ activeThreadId: id, messages: [] });
  const box = () => ({ text: draft.getState().text, items: attachments.store.getState().items.map((i) => i.ref.name) });
  // The composer has taken the text out of the box already (takeDraft); the attachments are still in theirs.
  const send = (items: readonly PendingAttachment[] = [photo]) => {
    attachments.store.setState({ items: [...items] });
    return sendWithAttachments(actions, chat as unknown as ChatStore, draft, attachments.store, 'Look at this');
  };
  return { open, box, send, stop };
}

describe('sending with attachments', () => {
  it('a stored message stays out of the box of the thread opened while its answer ran', async () => {
    const { open, box, send, stop } = setUp((chat) => {
      chat.setState({ messages: [{ attachments: [photo.ref] }] });
      chat.setState({ activeThreadId: 'b', messages: [] });
    }, true);
    await send();
    expect(box()).toEqual({ text: '', items: [] });
    open('a');
    expect(box()).toEqual({ text: '', items: [] });
    stop();
  });

  it('a message stored after the person opened another thread (it never showed) does not come back either', async () => {
    const { open, box, send, stop } = setUp((chat) => chat.setState({ activeThreadId: 'b', messages: [] }), true);
    await send();
    open('a');
    expect(box()).toEqual({ text: '', items: [] });
    stop();
  });

  it('a message the disk refused goes back into its own thread, not into the one open by then', async () => {
    const { open, box, send, stop } = setUp((chat) => chat.setState({ activeThreadId: 'b', messages: [] }), false);
    await send();
    expect(box()).toEqual({ text: '', items: [] });
    open('a');
    expect(box()).toEqual({ text: 'Look at this', items: ['photo.png'] });
    stop();
  });

  it('a refused message comes back before what was typed meanwhile, not instead of it', async () => {
    // While the turn ran the person typed on in the thread, then opened another.
    const { open, box, send, stop } = setUp((chat, draft) => {
      setDraft(draft, 'And one more thing');
      chat.setState({ activeThreadId: 'b', messages: [] });
    }, false);
    await send();
    open('a');
    expect(box()).toEqual({ text: 'Look at this\n\nAnd one more thing', items: ['photo.png'] });
    stop();
  });

  it('a message the disk refused, whose thread was deleted meanwhile, comes back into the box open now', async () => {
    const { box, send, stop } = setUp((chat) => {
      chat.setState({ activeThreadId: 'b', messages: [] });
      chat.setState({ threads: [{ id: 'b' }] }); // a is deleted for good while its answer ran.
    }, false);
    await send();
    expect(box()).toEqual({ text: 'Look at this', items: ['photo.png'] });
    stop();
  });

  it('a message the disk refused comes back into the box of the thread still open', async () => {
    const { box, send, stop } = setUp(() => undefined, false);
    await send();
    expect(box()).toEqual({ text: 'Look at this', items: ['photo.png'] });
    stop();
  });

  it('a message of text only that the disk refused comes back into the box too', async () => {
    const { box, send, stop } = setUp(() => undefined, false);
    await send([]);
    expect(box()).toEqual({ text: 'Look at this', items: [] });
    stop();
  });

  it('with no thread open, makes one first and sends the message with its attachments there', async () => {
    const chat = createStore<FakeChatState>(() => ({ activeThreadId: undefined, threads: [], messages: [] }));
    const draft = createDraft();
    const attachments = createAttachmentDraft();
    const stop = followThreadDrafts(draft, chat, attachments.store);
    const sent: { threadId: string | undefined; text: string; names: string[] }[] = [];
    const actions = {
      newThread: () => {
        chat.setState({ threads: [{ id: 'new' }] });
        chat.setState({ activeThreadId: 'new' });
        return Promise.resolve('new');
      },
      send: (text: string, items: readonly PendingAttachment[]) => {
        sent.push({ threadId: chat.getState().activeThreadId, text, names: items.map((i) => i.ref.name) });
        return Promise.resolve(true);
      },
    } as unknown as ChatActions;
    attachments.store.setState({ items: [photo] });
    await sendWithAttachments(actions, chat as unknown as ChatStore, draft, attachments.store, 'First words');
    expect(sent).toEqual([{ threadId: 'new', text: 'First words', names: ['photo.png'] }]);
    stop();
  });

  it('with no thread open, when the person opens another thread while the new one is made, sends nothing there and gives the message back', async () => {
    const chat = createStore<FakeChatState & { notice?: string }>(() => ({
      activeThreadId: undefined,
      threads: [{ id: 'b' }],
      messages: [],
    }));
    const draft = createDraft();
    const attachments = createAttachmentDraft();
    const stop = followThreadDrafts(draft, chat, attachments.store);
    const sent: (string | undefined)[] = [];
    const actions = {
      newThread: () => {
        chat.setState({ threads: [{ id: 'b' }, { id: 'new' }] });
        chat.setState({ activeThreadId: 'new' });
        // The person clicks thread b in the thread list; the new thread, left empty, is deleted.
        chat.setState({ activeThreadId: 'b' });
        chat.setState({ threads: [{ id: 'b' }] });
        return Promise.resolve('new');
      },
      send: () => {
        sent.push(chat.getState().activeThreadId);
        return Promise.resolve(true);
      },
    } as unknown as ChatActions;
    attachments.store.setState({ items: [photo] });
    await sendWithAttachments(
      actions,
      chat as unknown as ChatStore,
      draft,
      attachments.store,
      'Meant for a new thread',
    );
    expect(sent).toEqual([]);
    expect(draft.getState().text).toBe('Meant for a new thread');
    expect(attachments.store.getState().items.map((i) => i.ref.name)).toEqual(['photo.png']);
    expect(chat.getState().notice).toBe(NOT_SENT_ELSEWHERE);
    stop();
  });

  it('with no thread open and none can be made (a full disk), the text goes back into the box and a notice says why', async () => {
    const chat = createStore<FakeChatState & { notice?: string }>(() => ({
      activeThreadId: undefined,
      threads: [],
      messages: [],
    }));
    const draft = createDraft();
    const attachments = createAttachmentDraft();
    const stop = followThreadDrafts(draft, chat, attachments.store);
    let sends = 0;
    const actions = {
      newThread: () => Promise.reject(new StorageQuotaError('threads')),
      send: () => Promise.resolve(++sends > 0),
    } as unknown as ChatActions;
    attachments.store.setState({ items: [photo] });
    await sendWithAttachments(actions, chat as unknown as ChatStore, draft, attachments.store, 'Do not lose me');
    expect(sends).toBe(0);
    expect(draft.getState().text).toBe('Do not lose me');
    expect(attachments.store.getState().items.map((i) => i.ref.name)).toEqual(['photo.png']);
    expect(chat.getState().notice).toBe(
      'A new thread for your message could not be made: Browser storage is full, so the change to threads was not saved. Free space by deleting old threads, or allow this site more storage.',
    );
    stop();
  });
});
