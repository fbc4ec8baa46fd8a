// "anthropic" tool-search mode against the contract fake: every request is one the real Messages API accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval } from '../../../src/domain/trace';
import { sendMessage } from '../../../src/turns/turn-runner';
import { startTestApp, type TestApp } from '../../fakes/test-app';
import { startServerEverything } from '../../fixtures/server-everything';

let everything: Awaited<ReturnType<typeof startServerEverything>>;
let app: TestApp;

beforeAll(async () => {
  [everything, app] = await Promise.all([
    startServerEverything({ mode: 'streamableHttp' }),
    startTestApp({ apiKey: 'sk-ant-test-key', toolSearch: { mode: 'anthropic', deferral: 'always' } }),
  ]);
  await app.registry.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
});

afterAll(async () => {
  await app?.close();
  await everything?.stop();
});

describe('anthropic tool-search mode', () => {
  it('searches, gets tool_reference blocks, calls the found tool and answers: no request refused', async () => {
    const { api, deps, opened } = app;
    const thread = await opened.storage.threads.create(deps.profileId, {
      title: 'Anthropic mode',
      enabledServerIds: ['everything'],
      systemPrompt: 'Answer briefly.',
    });
    api.script(
      { toolUses: [{ name: 'tool_search', input: { query: 'echo a message back' } }] },
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'hi' } }] },
      { text: 'Echoed.' },
    );
    const outcome = await sendMessage(deps, thread.id, 'Please echo hi', {
      askApproval: async (): Promise<Approval> => 'allow-once',
      signal: new AbortController().signal,
    });
    // A refused request shows as an error turn; every call must have been accepted and answered.
    expect(outcome).toEqual({ status: 'done' });
    expect(api.requests).toHaveLength(3);
    expect(api.requests.every((request) => request.usage !== undefined)).toBe(true);
    const [first] = api.requests;
    expect(first?.deferredToolNames).toContain('mcp__everything__echo');
    // The cache breakpoint sits on a tool that is in the prompt, never on a deferred one.
    const marked = (first?.body.tools ?? []).filter((tool) => 'cache_control' in tool && tool.cache_control);
    expect(marked.map((tool) => ('name' in tool ? tool.name : tool.type))).toEqual(['tool_search']);
    // The search answered with tool_reference blocks naming the deferred tool, which the API then expands.
    expect(JSON.stringify(api.requests[1]?.body.messages.at(-1))).toContain(
      '{"type":"tool_reference","tool_name":"mcp__everything__echo"}',
    );
    const { items } = await opened.storage.messages.list(thread.id);
    expect(items.at(-1)).toMatchObject({ role: 'assistant', status: 'complete' });
  });
});
