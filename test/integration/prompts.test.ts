// A server's prompts (issue #20, item 2) through the real registry, prompts store and chat store: listed page by page
// and again after prompts/list_changed, arguments completed by the server, messages sent as the turn with their roles
// and content kept (server-everything on 127.0.0.1 and an SDK-built server; the contract fake as the model API).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../src/mcp/registry';
import { createChat } from '../../src/stores/chat-store';
import { createPrompts } from '../../src/stores/prompts-store';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import { startTestApp, type TestApp } from '../fakes/test-app';
import type { TestStorage } from '../fakes/test-storage';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';

let everything: ServerEverything;
let paged: TestMcpServer;
let app: TestApp;
let api: FakeAnthropic;
let opened: TestStorage;
let registry: Registry;
let chat: ReturnType<typeof createChat>;
let prompts: ReturnType<typeof createPrompts>;

beforeAll(async () => {
  [everything, paged, app] = await Promise.all([
    startServerEverything({ mode: 'streamableHttp' }),
    startTestMcpServer({ prompts: { count: 7, pageSize: 3 } }),
    startTestApp({ apiKey: 'sk-ant-prompts', toolSearch: { deferral: 'never' } }),
  ]);
  ({ api, opened, registry } = app);
  chat = createChat(app.deps);
  prompts = createPrompts(registry, chat.actions);
  await registry.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
  await registry.register({ id: 'paged', name: 'Paged', url: paged.url }, 'user');
});

afterAll(async () => {
  prompts?.dispose();
  chat?.dispose();
  await app?.close();
  await paged?.stop();
  await everything?.stop();
});

describe('prompts of the thread’s servers', () => {
  it('lists every page of every server’s prompts, filtered by what follows the /', async () => {
    await prompts.actions.refresh(['everything', 'paged']);
    const names = prompts.actions.options(['everything', 'paged'], '').map((o) => o.prompt.name);
    expect(names).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']));
    expect(names.filter((n) => n.startsWith('prompt-'))).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `prompt-${i}`));
    const filtered = prompts.actions.options(['everything', 'paged'], 'team');
    expect(filtered.map((o) => o.prompt.name)).toEqual(['completable-prompt']); // Its title is "Team Management".
    expect(filtered[0]!.label).toBe('Team Management');
    expect(filtered[0]!.detail).toMatch(/^Everything · /);
    // Only the thread's servers count.
    expect(prompts.actions.options(['paged'], '').every((o) => o.prompt.serverId === 'paged')).toBe(true);
  });

  it('lists a server again after it says its prompts changed', async () => {
    await prompts.actions.refresh(['paged']);
    expect(prompts.actions.options(['paged'], 'fresh')).toEqual([]);
    const changed = new Promise<void>((resolve) => {
      const stop = registry.subscribe((event) => {
        if (event.type === 'prompts' && event.serverId === 'paged') {
          stop();
          resolve();
        }
      });
    });
    paged.addPrompt('fresh-prompt');
    await changed;
    await prompts.actions.refresh(['paged']);
    expect(prompts.actions.options(['paged'], 'fresh').map((o) => o.prompt.name)).toEqual(['fresh-prompt']);
  });

  it('completes an argument from the server, using the arguments already given', async () => {
    await prompts.actions.refresh(['everything']);
    const team = prompts.actions.options(['everything'], 'team')[0]!.prompt;
    expect(team.arguments.map((a) => [a.name, a.isRequired])).toEqual([
      ['department', true],
      ['name', true],
    ]);
    prompts.actions.choose(team);
    await prompts.actions.setValue('department', 'S');
    expect(prompts.store.getState().chosen?.suggestions.department).toEqual(['Sales', 'Support']);
    await prompts.actions.setValue('department', 'Sales');
    await prompts.actions.setValue('name', '');
    expect(prompts.store.getState().chosen?.suggestions.name).toEqual(['David', 'Eve', 'Frank']);
    prompts.actions.cancel();
  });

  it('says which arguments are missing, and shows the server’s own error', async () => {
    await prompts.actions.refresh(['everything']);
    const resource = prompts.actions.options(['everything'], 'resource-prompt')[0]!.prompt;
    prompts.actions.choose(resource);
    expect(await prompts.actions.run('send')).toBeUndefined();
    expect(prompts.store.getState().chosen?.error).toBe('Fill in resourceType, resourceId first.');
    await prompts.actions.setValue('resourceType', 'Video');
    await prompts.actions.setValue('resourceId', '1');
    await prompts.actions.run('send');
    expect(prompts.store.getState().chosen?.error).toMatch(
      /^Everything could not give the prompt "resource-prompt": .*Invalid resourceType: Video/,
    );
    prompts.actions.cancel();
  });

  it('inserts a text-only prompt into the message box', async () => {
    await prompts.actions.refresh(['everything']);
    prompts.actions.choose(prompts.actions.options(['everything'], 'args-prompt')[0]!.prompt);
    await prompts.actions.setValue('city', 'Lisbon');
    expect(await prompts.actions.run('insert')).toBe("What's weather in Lisbon?");
    expect(prompts.store.getState().chosen).toBeUndefined();
  });

  it('sends a prompt with an embedded resource as the turn, its content kept', async () => {
    await chat.actions.newThread();
    const threadId = chat.store.getState().activeThreadId!;
    await chat.actions.setThreadServers(threadId, ['everything']);
    await prompts.actions.refresh(['everything']);
    prompts.actions.choose(prompts.actions.options(['everything'], 'resource-prompt')[0]!.prompt);
    await prompts.actions.setValue('resourceType', 'Text');
    await prompts.actions.setValue('resourceId', '2');
    expect(await prompts.actions.run('insert')).toBeUndefined(); // It holds a resource: only Send keeps it.
    expect(prompts.store.getState().chosen?.error).toMatch(/send it as the turn/);
    api.script({ text: 'That resource says hello.' });
    await prompts.actions.run('send');
    const sent = api.requests.at(-1)!.body.messages;
    expect(sent).toHaveLength(1); // Two user messages in a row go as one.
    expect(sent[0]!.role).toBe('user');
    const texts = (sent[0]!.content as { type: string; text?: string }[]).map((b) => b.text ?? '');
    expect(texts[0]).toBe('This prompt includes the Text resource with id: 2. Please analyze the following resource:');
    expect(texts[1]).toMatch(/^Resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\):\n/);
    const stored = (await opened.storage.messages.list(threadId)).items;
    expect(stored.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(chat.store.getState().threads.find((t) => t.id === threadId)?.title).toBe('Resource Prompt');
  });
});
