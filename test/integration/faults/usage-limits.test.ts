// Spending limits a person sets (issue #24 item 2), through the real turn runner, real storage and the contract fake
// of the Messages API: counted across every thread of the profile, a turn past one stops before the model call with
// a message naming the limit, nothing is lost, and Retry works once the window resets (the turn runner's clock).
import { describe, expect, it } from 'vitest';
import { HOUR_MS, localDay, type UsageLimitOverrides } from '../../../src/domain/usage-limits';
import { createChat } from '../../../src/stores/chat-store';
import { retryTurn, sendMessage } from '../../../src/turns/turn-runner';
import { cleanupAfterEach } from '../../fakes/cleanup';
import { startTestApp, type TestApp } from '../../fakes/test-app';

const cleanup = cleanupAfterEach();
const options = () => ({ askApproval: () => Promise.resolve('deny' as const), signal: new AbortController().signal });

/** A test app whose profile has these limits; `clock.at` moves the turn runner's time. */
async function appWithLimits(limits: UsageLimitOverrides) {
  const app = await startTestApp({ apiKey: 'sk-ant-limits' });
  cleanup(() => app.close());
  await app.opened.storage.profiles.update(app.profile.id, (p) => ({
    ...p,
    preferences: { ...p.preferences, limits },
  }));
  const clock = { at: Date.now() };
  const deps = { ...app.deps, now: () => clock.at };
  return { app, deps, clock };
}

const newThread = (app: TestApp) => app.opened.storage.threads.create(app.profile.id, { title: 'T' });

describe('usage limits', () => {
  it('a turn without an API key stops before the model call and traces no model call', async () => {
    const app = await startTestApp();
    cleanup(() => app.close());
    const thread = await newThread(app);
    const stopped = await sendMessage(app.deps, thread.id, 'hello', options());
    expect(stopped.status === 'error' && stopped.error).toContain('No API key is set');
    expect(app.api.requests).toHaveLength(0);
    const stored = (await app.opened.storage.messages.list(thread.id)).items;
    expect(stored.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'error'],
    ]);
    expect(stored.flatMap((m) => m.trace)).toEqual([]);
  });

  it('counts model calls of every thread: the third call in an hour stops before it is sent, and Retry works an hour later', async () => {
    const { app, deps, clock } = await appWithLimits({ maxCallsPerHour: 2 });
    const [a, b] = [await newThread(app), await newThread(app)];
    app.api.script({ text: 'first' }, { text: 'second' });
    expect(await sendMessage(deps, a.id, 'one', options())).toEqual({ status: 'done' });
    expect(await sendMessage(deps, b.id, 'two', options())).toEqual({ status: 'done' });

    const stopped = await sendMessage(deps, b.id, 'three', options());
    expect(stopped).toMatchObject({ status: 'error' });
    const error = stopped.status === 'error' ? stopped.error : '';
    expect(error).toContain('the limit of 2 model calls per hour is reached (2 in the last hour)');
    expect(error).toContain('Nothing of this thread is lost');
    expect(app.api.requests).toHaveLength(2); // Never sent.
    const stored = (await app.opened.storage.messages.list(b.id)).items;
    expect(stored.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['user', 'complete'],
      ['assistant', 'error'],
    ]);
    // No model call was made, so the turn's trace shows none (it said "1 model call" before).
    expect(stored.at(-1)!.trace).toEqual([]);

    clock.at += HOUR_MS + 1000;
    app.api.script({ text: 'third, an hour later' });
    expect(await retryTurn(deps, b.id, options())).toEqual({ status: 'done' });
    expect(app.api.requests).toHaveLength(3);
    expect(app.api.requests[2]!.body.messages.at(-1)).toEqual({
      role: 'user',
      // The newest block carries the request's moving cache breakpoint (src/agent/cache-breakpoints.ts).
      content: [{ type: 'text', text: 'three', cache_control: { type: 'ephemeral' } }],
    });
  });

  it('deleting a thread frees no limit: its calls and tokens still count', async () => {
    const { app, deps } = await appWithLimits({ maxCallsPerHour: 2 });
    const [a, b] = [await newThread(app), await newThread(app)];
    app.api.script({ text: 'first' }, { text: 'second' });
    expect(await sendMessage(deps, a.id, 'one', options())).toEqual({ status: 'done' });
    expect(await sendMessage(deps, b.id, 'two', options())).toEqual({ status: 'done' });
    await app.opened.storage.threads.delete(a.id);
    await app.opened.storage.threads.delete(b.id);
    const c = await newThread(app);
    const stopped = await sendMessage(deps, c.id, 'three', options());
    expect(stopped.status === 'error' && stopped.error).toContain('(2 in the last hour)');
    expect(app.api.requests).toHaveLength(2);
  });

  it('counts the tokens of the local day, and the next day starts afresh', async () => {
    const { app, deps, clock } = await appWithLimits({ maxTokensPerDay: 5 });
    const thread = await newThread(app);
    app.api.script({ text: 'a first answer' });
    expect(await sendMessage(deps, thread.id, 'one', options())).toEqual({ status: 'done' });
    const stopped = await sendMessage(deps, thread.id, 'two', options());
    expect(stopped.status === 'error' && stopped.error).toMatch(
      /the limit of 5 tokens per day is reached \(\d[\d,]* used today\)\. It resets at midnight/,
    );
    expect(app.api.requests).toHaveLength(1);

    clock.at = localDay(clock.at).end + 60_000;
    app.api.script({ text: 'a new day' });
    expect(await retryTurn(deps, thread.id, options())).toEqual({ status: 'done' });
  });

  it('a profile can lift a limit the app sets (null), and its own number wins over the app default', async () => {
    const { app, deps } = await appWithLimits({ maxCallsPerHour: null });
    const strict = { ...deps, defaults: { ...deps.defaults, limits: { maxCallsPerHour: 1 } } };
    const thread = await newThread(app);
    app.api.script({ text: 'one' }, { text: 'two' });
    expect(await sendMessage(strict, thread.id, 'a', options())).toEqual({ status: 'done' });
    expect(await sendMessage(strict, thread.id, 'b', options())).toEqual({ status: 'done' });
  });

  it('turning on one server more than the limit says why, and leaves the thread as it was', async () => {
    const { app, deps } = await appWithLimits({ maxServersPerThread: 1 });
    const chat = createChat(deps);
    cleanup(() => chat.dispose());
    await chat.actions.refreshThreads();
    const thread = await newThread(app);
    await chat.actions.refreshThreads();
    await chat.actions.setThreadServers(thread.id, ['one']);
    await chat.actions.setThreadServers(thread.id, ['one', 'two']);
    expect(chat.store.getState().note).toBe(
      'At most 1 server can be on in a thread (your limit in Settings); switch one off first.',
    );
    expect((await app.opened.storage.threads.get(thread.id))?.enabledServerIds).toEqual(['one']);
  });

  it('a new thread starts with the default servers the limit allows, and says it left some off', async () => {
    const { app, deps } = await appWithLimits({ maxServersPerThread: 2 });
    await app.opened.storage.profiles.update(app.profile.id, (p) => ({
      ...p,
      defaultServerIds: ['one', 'two', 'three'],
    }));
    const chat = createChat(deps);
    cleanup(() => chat.dispose());
    await chat.actions.newThread();
    const { threads, activeThreadId, note } = chat.store.getState();
    expect(threads.find((t) => t.id === activeThreadId)?.enabledServerIds).toEqual(['one', 'two']);
    expect(note).toBe(
      "This thread starts with 2 of your 3 default servers: at most 2 can be on in a thread (your limit in Settings). Choose which in the thread's servers.",
    );
    expect((await app.opened.storage.threads.get(activeThreadId ?? ''))?.enabledServerIds).toEqual(['one', 'two']);
  });

  it("a thread's spend cap stops the next call with the figure spent; raised in the thread, Retry goes on", async () => {
    const { app, deps } = await appWithLimits({});
    const thread = await newThread(app);
    await app.opened.storage.threads.update(thread.id, () => ({ maxCostUsd: 0.000001 }));
    app.api.script({ text: 'a priced answer' });
    expect(await sendMessage(deps, thread.id, 'one', options())).toEqual({ status: 'done' });
    const spent = (await app.opened.storage.messages.list(thread.id)).items.flatMap((m) => m.trace)[0];
    expect(spent).toMatchObject({ kind: 'model-call' });
    expect(spent?.kind === 'model-call' && spent.costUsd).toBeGreaterThan(0.000001);

    const stopped = await sendMessage(deps, thread.id, 'two', options());
    expect(stopped.status === 'error' && stopped.error).toMatch(
      /^Stopped before the model call: this thread's spend cap of \$0\.0000010 is reached \(\$0\.0000?\d\d spent in this thread\)\..*Nothing of this thread is lost\.$/,
    );
    expect(app.api.requests).toHaveLength(1); // Never sent.

    await app.opened.storage.threads.update(thread.id, () => ({ maxCostUsd: 10 }));
    app.api.script({ text: 'after the raise' });
    expect(await retryTurn(deps, thread.id, options())).toEqual({ status: 'done' });
    expect(app.api.requests).toHaveLength(2);
    const stored = (await app.opened.storage.messages.list(thread.id)).items;
    // The stopped answer stays with its message (nothing is lost); the question was not repeated.
    expect(stored.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['user', 'complete'],
      ['assistant', 'error'],
      ['assistant', 'complete'],
    ]);
  });

  it("a thread's spend cap counts the calls of every branch: an edit of the first message is stopped too", async () => {
    const { app, deps } = await appWithLimits({});
    const thread = await newThread(app);
    await app.opened.storage.threads.update(thread.id, () => ({ maxCostUsd: 0.000001 }));
    app.api.script({ text: 'a priced answer' });
    expect(await sendMessage(deps, thread.id, 'one', options())).toEqual({ status: 'done' });
    // A new first message (what Edit of the first message sends): the shown branch holds no priced call any more.
    const edited = await sendMessage(deps, thread.id, 'one, edited', { ...options(), after: null });
    expect(edited.status === 'error' && edited.error).toMatch(/this thread's spend cap of \$0\.0000010 is reached/);
    expect(app.api.requests).toHaveLength(1); // Never sent.
    const shown = await app.opened.storage.messages.list(thread.id);
    expect(shown.items.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(shown.offBranch.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it("a thread's spend cap with a model the price table lacks stops before the call and says why; without a cap it runs", async () => {
    const { app, deps } = await appWithLimits({});
    const unpriced = { ...deps, defaults: { ...deps.defaults, prices: {} } }; // The thread's model has no price.
    const thread = await newThread(app);
    await app.opened.storage.threads.update(thread.id, () => ({ maxCostUsd: 5 }));
    const stopped = await sendMessage(unpriced, thread.id, 'one', options());
    expect(stopped.status === 'error' && stopped.error).toMatch(
      /^Stopped before the model call: this thread has a spend cap of \$5\.00, but \S+ has no price in the app's price table, so what it spends cannot be counted\..*Nothing of this thread is lost\.$/,
    );
    expect(app.api.requests).toHaveLength(0); // Never sent: the cap could not have stopped it later.

    await app.opened.storage.threads.update(thread.id, () => ({ maxCostUsd: null }));
    app.api.script({ text: 'no cap, no price' });
    expect(await retryTurn(unpriced, thread.id, options())).toEqual({ status: 'done' });
    expect(app.api.requests).toHaveLength(1);
  });

  it("the profile's default cap counts per thread: another thread starts afresh, and a thread's 0 lifts it", async () => {
    const { app, deps } = await appWithLimits({ maxThreadCostUsd: 0.000001 });
    const [first, second] = [await newThread(app), await newThread(app)];
    app.api.script({ text: 'one' }, { text: 'two' }, { text: 'three' });
    expect(await sendMessage(deps, first.id, 'a', options())).toEqual({ status: 'done' });
    expect((await sendMessage(deps, first.id, 'b', options())).status).toBe('error');
    expect(await sendMessage(deps, second.id, 'c', options())).toEqual({ status: 'done' });
    await app.opened.storage.threads.update(first.id, () => ({ maxCostUsd: null }));
    expect(await retryTurn(deps, first.id, options())).toEqual({ status: 'done' });
    expect(app.api.requests).toHaveLength(3);
  });

  it("each model call's trace records the counts its check saw: the second sees the first's call, tokens and spend", async () => {
    const { app, deps } = await appWithLimits({ maxCallsPerHour: 50, maxTokensPerDay: 1_000_000, maxThreadCostUsd: 1 });
    const thread = await newThread(app);
    app.api.script({ text: 'first' }, { text: 'second' });
    expect(await sendMessage(deps, thread.id, 'one', options())).toEqual({ status: 'done' });
    expect(await sendMessage(deps, thread.id, 'two', options())).toEqual({ status: 'done' });
    const calls = (await app.opened.storage.messages.list(thread.id)).items
      .flatMap((m) => m.trace)
      .filter((e) => e.kind === 'model-call');
    expect(calls).toHaveLength(2);
    const [first, second] = calls;
    expect(first?.limits).toEqual({
      callsThisHour: { used: 0, max: 50 },
      tokensToday: { used: 0, max: 1_000_000 },
      threadSpendUsd: { used: 0, max: 1 },
    });
    const usage = first!.usage!;
    const firstTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    expect(firstTokens).toBeGreaterThan(0);
    expect(first?.costUsd).toBeGreaterThan(0);
    expect(second?.limits).toEqual({
      callsThisHour: { used: 1, max: 50 },
      tokensToday: { used: firstTokens, max: 1_000_000 },
      threadSpendUsd: { used: first!.costUsd, max: 1 },
    });
  });

  it('with no limit set, a model call records no counts', async () => {
    const { app, deps } = await appWithLimits({});
    const thread = await newThread(app);
    app.api.script({ text: 'unlimited' });
    expect(await sendMessage(deps, thread.id, 'one', options())).toEqual({ status: 'done' });
    const call = (await app.opened.storage.messages.list(thread.id)).items.flatMap((m) => m.trace)[0];
    expect(call).toMatchObject({ kind: 'model-call' });
    expect(call && 'limits' in call).toBe(false);
  });
});
