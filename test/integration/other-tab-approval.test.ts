// A turn waiting for the person's approval in one tab, seen from a second tab on the same thread (trial: the second tab
// showed the call as "not run", and offered to start a second turn). Two storages on one fake-indexeddb database and
// one change channel, one set of turn locks (Web Locks stand-in) and one turn-news channel (Node's BroadcastChannel)
// stand for two tabs; a real MCP server runs the tool and the contract fake of the Messages API answers.
import type { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalLocks, type Locks } from '../../src/platform/locks';
import { createTurnNewsChannel } from '../../src/platform/turn-news';
import { createChat } from '../../src/stores/chat-store';
import { cleanupAfterEach } from '../fakes/cleanup';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { openTestStorage } from '../fakes/test-storage';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';

const cleanup = cleanupAfterEach();
const WAIT = { timeout: 30_000 };
let everything: ServerEverything;

beforeAll(async () => {
  everything = await startServerEverything({ mode: 'streamableHttp' });
});
afterAll(async () => {
  await everything?.stop();
});

/** A tab: its own connection to the shared database (`factory`: the first tab's), its own chat, registry and fake API. */
async function openTab(name: string, locks: Locks, factory?: IDBFactory) {
  const opened = await openTestStorage({ name, channelName: name, ...(factory ? { factory } : {}) });
  const app: TestApp = await startTestApp({ apiKey: 'sk-ant-two-tabs', storage: opened, locks });
  await app.registry.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
  const turnNews = createTurnNewsChannel(new BroadcastChannel(`${name}-turns`));
  const chat = createChat({ ...app.deps, turnNews });
  cleanup(
    () => opened.close(),
    () => app.close(),
    () => turnNews.close(),
    () => chat.dispose(),
  );
  return { app, chat, turnNews };
}

/**
 * Locks of a tab the test can close as a browser closes one: the locks it holds are given back at once, and the work
 * it held them for never goes on (the page is gone). It shares the lock manager with the other tab.
 */
function closableLocks(shared: Locks): { locks: Locks; close: () => void } {
  let isGone = false;
  let close = () => {};
  const gone = new Promise<void>((resolve) => (close = () => ((isGone = true), resolve())));
  /** Runs `work` under the lock until it ends or the tab closes; what it settles to reaches the caller only if it ends. */
  const untilClosed =
    <T>(work: () => Promise<T>, resolve: (value: T) => void, reject: (error: unknown) => void) =>
    () =>
      Promise.race([
        work().then(
          (value) => !isGone && resolve(value),
          (error: unknown) => !isGone && reject(error),
        ),
        gone,
      ]);
  return {
    locks: {
      request: (name, work) =>
        new Promise((resolve, reject) => void shared.request(name, untilClosed(work, resolve, reject))),
      requestIfFree: (name, work) =>
        new Promise((resolve, reject) => {
          let isTaken = false;
          const run = untilClosed(work, resolve, reject);
          void shared
            .requestIfFree(name, () => ((isTaken = true), run()))
            .then(() => {
              if (!isTaken) resolve(undefined); // Held by a tab: nothing ran.
            });
        }),
    },
    close,
  };
}

async function sharedThread(
  name: string,
  locks: { a: Locks; b: Locks },
  answerHeld: Promise<void> = Promise.resolve(),
) {
  const a = await openTab(name, locks.a);
  const b = await openTab(name, locks.b, a.app.opened.factory);
  const thread = await a.app.opened.storage.threads.create(a.app.profile.id, {
    title: 'Shared',
    enabledServerIds: ['everything'],
  });
  a.app.api.script(
    { toolUses: [{ id: 'toolu_shared', name: 'mcp__everything__echo', input: { message: 'from tab A' } }] },
    { text: 'The echo came back.', holdAfterChunks: { afterChunks: 0, until: answerHeld } },
  );
  await a.chat.actions.refreshThreads();
  await a.chat.actions.openThread(thread.id);
  const sending = a.chat.actions.send('Echo across tabs');
  await vi.waitFor(() => expect(a.chat.store.getState().pendingApprovals).toHaveLength(1), WAIT);
  // Opened after A asked: B learns what A waits for by asking.
  await b.chat.actions.refreshThreads();
  await b.chat.actions.openThread(thread.id);
  await vi.waitFor(() => {
    const state = b.chat.store.getState();
    expect(state.answeringElsewhere).toBe(thread.id);
    expect(state.awaitingElsewhere).toEqual(['toolu_shared']);
  }, WAIT);
  return { a, b, thread, sending };
}

describe('a turn waiting for approval in another tab', () => {
  it('shows there as waiting, starts no second turn, and ends there with the answer once approved', async () => {
    const shared = createLocalLocks();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { a, b, thread, sending } = await sharedThread(`approval-${Date.now()}`, { a: shared, b: shared }, held);
    // B starts nothing on the thread meanwhile: a Send would only run after A's turn, as a second one.
    expect(await b.chat.actions.send('Sent from tab B')).toBe(false);
    await b.chat.actions.retry();
    expect(b.chat.store.getState().isRunning).toBe(false);
    expect(b.chat.store.getState().pendingApprovals).toEqual([]); // Approval stays in A.

    a.chat.store.getState().pendingApprovals[0]!.answer('allow-once');
    // Allowed, the call runs and the answer is on its way there: here it is no longer waiting for approval.
    await vi.waitFor(() => {
      expect(b.chat.store.getState().answeringElsewhere).toBe(thread.id);
      expect(b.chat.store.getState().awaitingElsewhere).toEqual([]);
    }, WAIT);
    release();
    await sending;
    await vi.waitFor(() => {
      const state = b.chat.store.getState();
      expect(state.answeringElsewhere).toBeUndefined();
      expect(state.awaitingElsewhere).toBeUndefined();
      expect(state.messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'The echo came back.' }]);
      // The list's preview is A's last write: B has read everything by then.
      expect(state.threads.find((t) => t.id === thread.id)?.preview).toBe('The echo came back.');
    }, WAIT);
    expect(a.app.api.requests).toHaveLength(2);
    expect(b.app.api.requests).toHaveLength(0);
    const stored = await b.app.opened.storage.messages.list(thread.id);
    expect(stored.items.filter((m) => m.role === 'user' && m.blocks.some((x) => x.type === 'text'))).toHaveLength(1);
  });

  it('is taken up by the other tab when the tab running it closes: asked about there, and run once allowed', async () => {
    const shared = createLocalLocks();
    const tabA = closableLocks(shared);
    const { a, b, thread } = await sharedThread(`closed-${Date.now()}`, { a: tabA.locks, b: shared });
    b.app.api.script({ text: 'Echoed after all.' });
    a.turnNews.close(); // The tab is gone: it answers no more questions of the other tabs, and its locks are free.
    tabA.close();
    await vi.waitFor(() => expect(b.chat.store.getState().pendingApprovals).toHaveLength(1), WAIT);
    expect(b.chat.store.getState().answeringElsewhere).toBeUndefined();
    b.chat.store.getState().pendingApprovals[0]!.answer('allow-once');
    await vi.waitFor(() => {
      const state = b.chat.store.getState();
      expect(state.isRunning).toBe(false);
      expect(state.messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'Echoed after all.' }]);
      expect(state.threads.find((t) => t.id === thread.id)?.preview).toBe('Echoed after all.'); // Its turn's last step.
    }, WAIT);
    expect(JSON.stringify(b.app.api.requests.at(-1)?.body.messages)).toContain('Echo: from tab A');
  });
});
