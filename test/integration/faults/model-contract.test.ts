// Fault matrix, model API: a request the real API refuses under its documented rules (the contract fake's 400s).
import { describe, expect, it } from 'vitest';
import { faultAppsPerTest, storedMessages } from './turn-harness';

const { app } = faultAppsPerTest();

describe('model API contract faults', () => {
  it('a thread over the context window: the API\'s "prompt is too long" shows under the answer, the question is kept', async () => {
    // A 2,000-token window so a 12,000-character question (about 3,000 tokens) is over it.
    const faults = await app({ maxRetries: 0, api: { contextWindowTokens: 2000 } });
    await faults.chat.actions.newThread();
    const threadId = faults.chat.store.getState().activeThreadId!;
    const question = 'Summarize this log. '.repeat(600);
    await faults.chat.actions.send(question);
    const stored = await storedMessages(faults, threadId);
    expect(stored[0]?.text).toBe(question.trim());
    expect(stored[1]?.status).toBe('error');
    expect(stored[1]?.error).toMatch(
      /^The API refused the request\. \(prompt is too long: \d+ tokens > 2000 maximum\)$/,
    );
    // One message over the window cannot be summarized either: the app's summary call meets the same refusal. (A thread
    // that grows past 75% of the window over many messages is compacted: compaction.test.ts.)
    await faults.chat.actions.send('Short question');
    expect((await storedMessages(faults, threadId)).at(-1)?.error).toMatch(/prompt is too long/);
    expect(faults.api.pendingTurns).toBe(0);
  });
});
