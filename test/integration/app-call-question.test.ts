// A server's question during a tool call an MCP App made belongs to the app's thread, not to a turn running in another
// thread: it shows where the person used the app, and the other turn's end does not cancel it. The app as it starts
// (startApp), with server-everything on 127.0.0.1 and the contract fake of the Messages API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../src/agent/anthropic-model';
import { createStorageRegistry, openTestProfile, testAppServices } from '../fakes/test-app';
import { createAppStore } from '../../src/stores/app-store';
import { startApp } from '../../src/stores/start-app';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openTestStorage } from '../fakes/test-storage';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { cleanupAfterEach } from '../fakes/cleanup';
import { countingSignal } from '../fakes/counting-signal';
import { until } from './sampling-rig';

const cleanup = cleanupAfterEach();
let everything: ServerEverything;
let api: FakeAnthropic;
beforeAll(async () => {
  [everything, api] = await Promise.all([startServerEverything({ mode: 'streamableHttp' }), startFakeAnthropic()]);
});
afterAll(async () => {
  await Promise.all([everything?.stop(), api?.stop()]);
});

/** The signals the registry's tool calls were given, newest last. */
const callSignals: AbortSignal[] = [];

/** The app as it starts, with Everything registered and connected; `threads` made with the servers on given. */
async function startWith(threads: Record<string, readonly string[]>) {
  const test = await openTestStorage();
  const profile = await openTestProfile(test.storage, { apiKey: 'sk-ant-app-question' });
  const store = createAppStore();
  await startApp(store, () =>
    Promise.resolve(
      testAppServices(test.storage, {
        createRegistry: (profileId, _oauth, handlers = {}) => {
          const registry = createStorageRegistry(test.storage, profileId, handlers);
          const callTool = registry.callTool.bind(registry);
          registry.callTool = (serverId, toolName, args, options) => {
            if (options?.signal) callSignals.push(options.signal);
            return callTool(serverId, toolName, args, options);
          };
          return registry;
        },
        createModel: (apiKey) =>
          createAnthropicModel({
            apiKey,
            baseUrl: api.url,
            fetch: (input, init) => fetch(input, init),
            maxRetries: 0,
          }),
        mountMcpApp: () => {
          throw new Error('no frames in this test');
        },
      }),
    ),
  );
  const state = store.getState();
  cleanup(
    () => test.close(),
    () => state.registry?.close(),
  );
  await state.registry!.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
  await state.registry!.connect('everything');
  const ids: Record<string, string> = {};
  for (const [title, enabledServerIds] of Object.entries(threads))
    ids[title] = (await test.storage.threads.create(profile.id, { title, enabledServerIds: [...enabledServerIds] })).id;
  await state.chatActions!.refreshThreads();
  return { ...state, ids, registry: state.registry!, chat: state.chat!, chatActions: state.chatActions! };
}

/** Holds the next answer mid-stream: a turn runs in `threadId` until `release`. */
async function holdTurnIn(
  started: Awaited<ReturnType<typeof startWith>>,
  threadId: string,
): Promise<{ release: () => void; answered: Promise<unknown> }> {
  let release!: () => void;
  api.script({
    text: ['Thinking', ' it over.'],
    holdAfterChunks: { afterChunks: 1, until: new Promise((r) => (release = () => r(undefined))) },
  });
  await started.chatActions.openThread(threadId);
  const answered = started.chatActions.send('Take your time.');
  await until(started.chat, (s) => (s.runningThreadId === threadId ? true : undefined));
  return { release, answered };
}

const app = {
  serverId: 'everything',
  serverName: 'Everything',
  origin: 'http://127.0.0.1',
  uri: 'ui://everything/app.html',
};
const callFrom = (threadId: string) => ({ threadId, signal: new AbortController().signal });

/** The app in `threadId` calls Everything's tool that asks the person (approved at once); resolves with the question. */
async function askFromApp(started: Awaited<ReturnType<typeof startWith>>, threadId: string) {
  const { mcpApps, serverRequests } = started;
  mcpApps!.store.subscribe((s) => s.approvals.forEach((p) => p.answer('allow-once')));
  const called = mcpApps!.actions.callTool(
    app,
    'trigger-elicitation-request',
    {},
    new AbortController().signal,
    callFrom(threadId),
  );
  const question = await until(serverRequests!.store, (s) => s.elicitations[0]);
  return { called, question };
}

describe("a server's question during an MCP App's tool call", () => {
  it("goes to the app's thread while another thread's turn runs, and stays when that turn ends", async () => {
    // Thread A has no server on; thread B has Everything, whose app the person uses.
    const started = await startWith({ A: [], B: ['everything'] });
    const { ids, serverRequests } = started;
    // A's answer is held mid-stream: its turn runs while the person uses the app in B.
    const { release, answered } = await holdTurnIn(started, ids.A!);
    await started.chatActions.openThread(ids.B!);

    const { called, question } = await askFromApp(started, ids.B!);
    expect(question.threadId).toBe(ids.B);

    // A's turn ends: the app's question is not that turn's, so it stays to be answered.
    release();
    await answered;
    await until(started.chat, (s) => (s.runningThreadId === undefined ? true : undefined));
    expect(serverRequests!.store.getState().elicitations).toEqual([question]);

    question.answer({ action: 'accept', content: { name: 'Ada' } });
    const result = await called;
    expect(JSON.stringify(result.content)).toContain('accept');
    expect(JSON.stringify(result.content)).toContain('Ada');
  });

  it("goes to the app's thread, not to a turn running in a thread that has the server on but does not call it", async () => {
    const started = await startWith({ A: ['everything'], B: ['everything'] });
    const { ids, serverRequests } = started;
    const { release, answered } = await holdTurnIn(started, ids.A!);
    await started.chatActions.openThread(ids.B!);

    const { called, question } = await askFromApp(started, ids.B!);
    expect(question.threadId).toBe(ids.B);
    expect(question.isFromTurn).toBeUndefined();

    // A's turn ends: the question is the app's in B, and stays.
    release();
    await answered;
    await until(started.chat, (s) => (s.runningThreadId === undefined ? true : undefined));
    expect(serverRequests!.store.getState().elicitations).toEqual([question]);
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    expect(JSON.stringify((await called).content)).toContain('Ada');
  });

  it("is declined while an app's call of the server only waits for the person's approval", async () => {
    const started = await startWith({ B: ['everything'] });
    const { ids, mcpApps, serverRequests, registry } = started;
    await started.chatActions.openThread(ids.B!);
    const called = mcpApps!.actions.callTool(
      app,
      'trigger-elicitation-request',
      {},
      new AbortController().signal,
      callFrom(ids.B!),
    );
    const approval = await until(mcpApps!.store, (s) => s.approvals[0]);

    // While the person has not answered, a call of the server that is no thread's: its question has no one to ask.
    // (Raced with a question showing, so that the test fails at once rather than waiting on an unanswered form.)
    const outside = await Promise.race([
      registry.callTool('everything', 'trigger-elicitation-request', {}),
      until(serverRequests!.store, (s) => s.elicitations[0]).then((shown) => {
        shown.answer({ action: 'cancel' });
        throw new Error(`The question was shown in thread ${shown.threadId}`);
      }),
    ]);
    expect(JSON.stringify(outside.content)).toContain('decline');
    expect(serverRequests!.store.getState().elicitations).toEqual([]);

    approval.answer('deny');
    expect((await called).isError).toBe(true);
  });
});

describe("an MCP App's tool call and its frame's teardown signal (review: listeners left on it)", () => {
  it('is tied to the frame only while it runs: once answered, no listener stays and tearing the frame down reaches it not', async () => {
    const started = await startWith({ B: ['everything'] });
    const { ids, mcpApps } = started;
    await started.chatActions.openThread(ids.B!);
    mcpApps!.store.subscribe((s) => s.approvals.forEach((p) => p.answer('allow-once')));
    const { controller: torn, signal: tornSignal, listeners } = countingSignal();

    const result = await mcpApps!.actions.callTool(app, 'echo', { message: 'hi' }, new AbortController().signal, {
      threadId: ids.B!,
      signal: tornSignal,
    });
    expect(JSON.stringify(result.content)).toContain('hi');
    expect(listeners()).toBe(0);
    const signal = callSignals.at(-1)!;
    torn.abort(); // The card goes away after its call was answered: nothing of that call is told.
    expect(signal.aborted).toBe(false);
  });
});
