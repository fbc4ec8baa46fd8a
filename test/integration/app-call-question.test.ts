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

describe("a server's question during an MCP App's tool call", () => {
  it("goes to the app's thread while another thread's turn runs, and stays when that turn ends", async () => {
    const test = await openTestStorage();
    const profile = await openTestProfile(test.storage, { apiKey: 'sk-ant-app-question' });
    const store = createAppStore();
    await startApp(store, () =>
      Promise.resolve(
        testAppServices(test.storage, {
          createRegistry: (profileId, _oauth, handlers = {}) =>
            createStorageRegistry(test.storage, profileId, handlers),
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
    const { registry, chat, chatActions, mcpApps, serverRequests } = store.getState();
    cleanup(
      () => test.close(),
      () => registry?.close(),
    );
    await registry!.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
    await registry!.connect('everything');
    // Thread A has no server on; thread B has Everything, whose app the person uses.
    const a = await test.storage.threads.create(profile.id, { title: 'Plain', enabledServerIds: [] });
    const b = await test.storage.threads.create(profile.id, { title: 'With app', enabledServerIds: ['everything'] });
    await chatActions!.refreshThreads();

    // A's answer is held mid-stream: its turn runs while the person uses the app in B.
    let release!: () => void;
    api.script({
      text: ['Thinking', ' it over.'],
      holdAfterChunks: { afterChunks: 1, until: new Promise((r) => (release = () => r(undefined))) },
    });
    await chatActions!.openThread(a.id);
    const answered = chatActions!.send('Take your time.');
    await until(chat!, (s) => (s.runningThreadId === a.id ? true : undefined));
    await chatActions!.openThread(b.id);

    mcpApps!.store.subscribe((s) => s.approvals.forEach((p) => p.answer('allow-once')));
    const app = {
      serverId: 'everything',
      serverName: 'Everything',
      origin: 'http://127.0.0.1',
      uri: 'ui://everything/app.html',
    };
    const called = mcpApps!.actions.callTool(app, 'trigger-elicitation-request', {}, new AbortController().signal, {
      threadId: b.id,
      signal: new AbortController().signal,
    });
    const question = await until(serverRequests!.store, (s) => s.elicitations[0]);
    expect(question.threadId).toBe(b.id);

    // A's turn ends: the app's question is not that turn's, so it stays to be answered.
    release();
    await answered;
    await until(chat!, (s) => (s.runningThreadId === undefined ? true : undefined));
    expect(serverRequests!.store.getState().elicitations).toEqual([question]);

    question.answer({ action: 'accept', content: { name: 'Ada' } });
    const result = await called;
    expect(JSON.stringify(result.content)).toContain('accept');
    expect(JSON.stringify(result.content)).toContain('Ada');
  });
});
