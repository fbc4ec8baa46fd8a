// ServerConfig.deferTools (issue #23): a server set to always load has its tools in every call, even when the
// thread's tool search defers everything else; one set to always defer waits behind tool_search even in a thread whose
// own setting (the thread tier, over the profile's and the app's) is never to defer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval } from '../../src/domain/trace';
import { sendMessage } from '../../src/turns/turn-runner';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { startServerEverything } from '../fixtures/server-everything';

let everything: Awaited<ReturnType<typeof startServerEverything>>;
let app: TestApp;

beforeAll(async () => {
  [everything, app] = await Promise.all([
    startServerEverything({ mode: 'streamableHttp' }),
    startTestApp({ apiKey: 'sk-ant-test-key', toolSearch: { mode: 'client', deferral: 'always' } }),
  ]);
  await app.registry.register({ id: 'always', name: 'Always', url: everything.url, deferTools: false }, 'user');
  await app.registry.register({ id: 'deferred', name: 'Deferred', url: everything.url }, 'user');
  await app.registry.register({ id: 'waits', name: 'Waits', url: everything.url, deferTools: 'always' }, 'user');
});

afterAll(async () => {
  await app?.close();
  await everything?.stop();
});

describe('a server set to always load', () => {
  it('is sent whole in a deferred thread, while the other server waits behind tool_search', async () => {
    const { api, deps, opened } = app;
    const thread = await opened.storage.threads.create(deps.profileId, {
      title: 'Always load',
      enabledServerIds: ['always', 'deferred'],
      systemPrompt: 'Answer briefly.',
    });
    api.script({ text: 'Hello.' });
    const outcome = await sendMessage(deps, thread.id, 'Hi', {
      askApproval: async (): Promise<Approval> => 'allow-once',
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'done' });
    const names = (api.requests[0]?.body.tools ?? []).map((tool) => ('name' in tool ? tool.name : tool.type));
    expect(names[0]).toBe('tool_search');
    expect(names).toContain('mcp__always__echo');
    expect(names.filter((name) => name.startsWith('mcp__always__')).length).toBeGreaterThan(3);
    expect(names.filter((name) => name.startsWith('mcp__deferred__'))).toEqual([]);
  });

  it('set to always defer waits behind tool_search in a thread set never to defer; the others are sent whole', async () => {
    const { api, deps, opened } = app;
    const thread = await opened.storage.threads.create(deps.profileId, {
      title: 'Always defer',
      enabledServerIds: ['waits', 'deferred'],
      systemPrompt: 'Answer briefly.',
    });
    await opened.storage.threads.update(thread.id, () => ({ toolSearch: { deferral: 'never' } }));
    const before = api.requests.length;
    api.script({ text: 'Hello.' });
    const outcome = await sendMessage(deps, thread.id, 'Hi', {
      askApproval: async (): Promise<Approval> => 'allow-once',
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'done' });
    const names = (api.requests[before]?.body.tools ?? []).map((tool) => ('name' in tool ? tool.name : tool.type));
    expect(names[0]).toBe('tool_search');
    expect(names).toContain('mcp__deferred__echo');
    expect(names.filter((name) => name.startsWith('mcp__waits__'))).toEqual([]);
  });
});
