// A server may ask the person during any request of the app, not only a tool call: a prompt picked in a thread's
// composer (prompts/get; not its completions, sent at each key) and a resource attached there (resources/read) ask in that thread. A read in
// a thread where the server is off asks no one. The app as it starts (startApp) with a real SDK server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PromptInfo } from '../../src/domain/prompts';
import { createAppStore } from '../../src/stores/app-store';
import { startApp } from '../../src/stores/start-app';
import { cleanupAfterEach } from '../fakes/cleanup';
import { createStorageRegistry, openTestProfile, testAppServices } from '../fakes/test-app';
import { openTestStorage } from '../fakes/test-storage';
import { ASK_PROMPT, ASK_RESOURCE, startAskingMcpServer } from '../fixtures/asking-mcp-server';
import type { TestMcpServer } from '../fixtures/test-mcp-server';
import { until } from './sampling-rig';

const cleanup = cleanupAfterEach();
let server: TestMcpServer;
beforeAll(async () => {
  server = await startAskingMcpServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The app as it starts, with the asking server registered; `threads` made with the servers on given. */
async function startWith(threads: Record<string, readonly string[]>) {
  const test = await openTestStorage();
  const profile = await openTestProfile(test.storage);
  const store = createAppStore();
  await startApp(store, () =>
    Promise.resolve(
      testAppServices(test.storage, {
        createRegistry: (profileId, _oauth, handlers = {}) => createStorageRegistry(test.storage, profileId, handlers),
      }),
    ),
  );
  const state = store.getState();
  cleanup(
    () => test.close(),
    () => state.registry?.close(),
  );
  await state.registry!.register({ id: 'asker', name: 'Asker', url: server.url }, 'user');
  await state.registry!.connect('asker');
  const ids: Record<string, string> = {};
  for (const [title, enabledServerIds] of Object.entries(threads))
    ids[title] = (await test.storage.threads.create(profile.id, { title, enabledServerIds: [...enabledServerIds] })).id;
  await state.chatActions!.refreshThreads();
  return { ...state, ids, prompts: state.prompts!, requests: state.serverRequests!, chatActions: state.chatActions! };
}

/** The asking server's prompt, as the `/` list offers it. */
async function greetPrompt(started: Awaited<ReturnType<typeof startWith>>): Promise<PromptInfo> {
  await started.prompts.actions.refresh(['asker']);
  const option = started.prompts.actions.options(['asker'], '').find((o) => o.prompt.name === ASK_PROMPT);
  return option!.prompt;
}

describe("a server's question while it answers a read the person made in a thread", () => {
  it('during prompts/get of a prompt picked in a thread: asked in that thread, and the prompt has the answer', async () => {
    const started = await startWith({ B: ['asker'] });
    const { ids, prompts, requests } = started;
    await started.chatActions.openThread(ids.B!);
    prompts.actions.choose(await greetPrompt(started), ids.B);
    // Its argument's suggestions (completion/complete), asked for at each key, may not ask: declined, no form shown.
    await until(prompts.store, (s) => s.chosen?.suggestions.tone);
    expect(prompts.store.getState().chosen?.suggestions.tone).toEqual(['no name (decline)']);
    expect(requests.store.getState().elicitations).toEqual([]);

    const inserted = prompts.actions.run('insert');
    const question = await until(requests.store, (s) => s.elicitations[0]);
    expect([question.threadId, question.message, question.serverName]).toEqual([ids.B, 'Whose prompt is it?', 'Asker']);
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    expect(await inserted).toBe('Greet name Ada');
  });

  it('during resources/read of a resource attached in a thread: asked in that thread, and the attachment has the answer', async () => {
    const started = await startWith({ B: ['asker'] });
    const { ids, requests } = started;
    await started.chatActions.openThread(ids.B!);
    const attached = started.resources!.attach('asker', ASK_RESOURCE);
    const question = await until(requests.store, (s) => s.elicitations[0]);
    expect([question.threadId, question.message]).toEqual([ids.B, 'Whose greeting is it?']);
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    await attached;
    const [item] = started.attachments.store.getState().items;
    expect(await item?.blob.text()).toBe('For name Ada');
  });

  it('during resources/read of a resource link read from a tool card in a thread: asked in that thread', async () => {
    const started = await startWith({ B: ['asker'] });
    const { ids, requests } = started;
    await started.chatActions.openThread(ids.B!);
    const reading = started.chatActions.readResource('asker', ASK_RESOURCE);
    const question = await until(requests.store, (s) => s.elicitations[0]);
    expect([question.threadId, question.message]).toEqual([ids.B, 'Whose greeting is it?']);
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    expect(await reading).toMatchObject({ ok: true, contents: [{ text: 'For name Ada' }] });
  });

  it('is declined, with a note in its Log, when the thread has the server off; the read goes on', async () => {
    const started = await startWith({ A: [] });
    const { ids, prompts, requests } = started;
    await started.chatActions.openThread(ids.A!);
    const prompt = await greetPrompt(started);
    prompts.actions.choose({ ...prompt, arguments: [] }, ids.A); // No suggestions asked for: only prompts/get.
    // Raced with a question showing, so that the test fails at once rather than waiting on an unanswered form.
    const inserted = await Promise.race([
      prompts.actions.run('insert'),
      until(requests.store, (s) => s.elicitations[0]).then((shown) => {
        shown.answer({ action: 'cancel' });
        throw new Error(`The question was shown in thread ${shown.threadId}`);
      }),
    ]);
    expect(inserted).toBe('Greet no name (decline)');
    const logs = () => started.servers!.getState().servers.find((s) => s.id === 'asker')?.logs ?? [];
    await expect
      .poll(() => logs().map((entry) => entry.text))
      .toContainEqual(expect.stringContaining('Declined its request for input ("Whose prompt is it?")'));
  });
});
