import { describe, expect, it, vi } from 'vitest';
import { createTurnNewsChannel, type TurnNews } from './turn-news';

/** Two tabs' channels on one name (Node's BroadcastChannel delivers between them, not to the sender). */
function twoTabs() {
  const name = `turn-news-${crypto.randomUUID()}`;
  const raw = new BroadcastChannel(name);
  const [here, there] = [
    createTurnNewsChannel(new BroadcastChannel(name)),
    createTurnNewsChannel(new BroadcastChannel(name)),
  ];
  return { raw, here, there, close: () => (raw.close(), here.close(), there.close()) };
}

describe('turn news between tabs', () => {
  it('carries a question and the answer to it, and ignores what is not news (another version of the app)', async () => {
    const { raw, here, there, close } = twoTabs();
    try {
      const heard: TurnNews[] = [];
      here.onNews((news) => heard.push(news));
      there.onAsk((threadId) => there.tell({ threadId, awaitingApproval: ['toolu_1'] }));
      raw.postMessage({ kind: 'news', news: { threadId: 't', awaitingApproval: [1] } });
      raw.postMessage({ kind: 'news', news: { threadId: 't' } });
      raw.postMessage('hello');
      here.ask('t');
      await vi.waitFor(() => expect(heard).toEqual([{ threadId: 't', awaitingApproval: ['toolu_1'] }]));
    } finally {
      close();
    }
  });

  it('says nothing once closed (a turn that ends after a profile switch), without throwing', () => {
    const { here, close } = twoTabs();
    here.close();
    expect(() => here.tell({ threadId: 't', awaitingApproval: [] })).not.toThrow();
    expect(() => createTurnNewsChannel(undefined).ask('t')).not.toThrow(); // No BroadcastChannel: nobody hears.
    close();
  });
});
