// A thread answered in another tab (trial 12): the tab that opens it says so and its Send waits, instead of a message
// sent there queueing unseen behind the other tab's turn; when that turn ends the answer shows here. Two chat stores on
// one storage and one set of turn locks stand for two tabs; the contract fake of the Messages API answers.
import { describe, expect, it, vi } from 'vitest';
import { createChat } from '../../src/stores/chat-store';
import { cleanupAfterEach } from '../fakes/cleanup';
import { startTestApp } from '../fakes/test-app';

const cleanup = cleanupAfterEach();

describe('a thread answered in another tab', () => {
  it('is marked in the tab that opens it until that answer ends, then shows the answer', async () => {
    const app = await startTestApp({ apiKey: 'sk-ant-other-tab' });
    cleanup(() => app.close());
    const thread = await app.opened.storage.threads.create(app.profile.id, { title: 'Shared' });
    const [first, second] = [createChat(app.deps), createChat(app.deps)];
    cleanup(() => {
      first.dispose();
      second.dispose();
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    app.api.script({ text: ['Written in ', 'the first tab.'], holdAfterChunks: { afterChunks: 1, until: held } });
    await first.actions.refreshThreads();
    await first.actions.openThread(thread.id);
    const sending = first.actions.send('Hello from the first tab');
    await vi.waitFor(() => expect(app.api.requests).toHaveLength(1), { timeout: 30_000 });

    await second.actions.refreshThreads();
    await second.actions.openThread(thread.id);
    await vi.waitFor(() => expect(second.store.getState().answeringElsewhere).toBe(thread.id), { timeout: 30_000 });
    expect(first.store.getState().answeringElsewhere).toBeUndefined(); // Its own turn is not "elsewhere".

    release();
    await sending;
    await vi.waitFor(
      () => {
        const state = second.store.getState();
        expect(state.answeringElsewhere).toBeUndefined();
        expect(state.messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'Written in the first tab.' }]);
      },
      { timeout: 30_000 },
    );
  });

  it('is not marked when no tab answers in it', async () => {
    const app = await startTestApp({ apiKey: 'sk-ant-other-tab' });
    cleanup(() => app.close());
    const thread = await app.opened.storage.threads.create(app.profile.id, { title: 'Quiet' });
    const chat = createChat(app.deps);
    cleanup(() => chat.dispose());
    await chat.actions.refreshThreads();
    await chat.actions.openThread(thread.id);
    app.api.script({ text: 'An answer here.' });
    await chat.actions.send('Hello');
    expect(chat.store.getState().answeringElsewhere).toBeUndefined();
    expect(chat.store.getState().messages.at(-1)?.status).toBe('complete');
  });
});
