// Extended thinking with tools against the contract fake: the app keeps each thinking block at the start of its turn.
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
    startTestApp({ apiKey: 'sk-ant-test-key', toolSearch: { deferral: 'never' } }),
  ]);
  await app.registry.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
});

afterAll(async () => {
  await app?.close();
  await everything?.stop();
});

describe('thinking with tools', () => {
  it('two tool turns with thinking on: every request accepted, the answer arrives', async () => {
    const { api, deps, opened } = app;
    const thread = await opened.storage.threads.create(deps.profileId, {
      title: 'Thinking',
      enabledServerIds: ['everything'],
    });
    await opened.storage.threads.update(thread.id, () => ({ thinkingBudget: 2048 }));
    api.script(
      { thinking: 'I should echo first.', toolUses: [{ name: 'mcp__everything__echo', input: { message: 'a' } }] },
      { thinking: 'Once more.', toolUses: [{ name: 'mcp__everything__echo', input: { message: 'b' } }] },
      { thinking: 'Done.', text: 'Echoed twice.' },
    );
    const askApproval = async (): Promise<Approval> => 'allow-once';
    const outcome = await sendMessage(deps, thread.id, 'Echo a then b', {
      askApproval,
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'done' });
    expect(api.requests).toHaveLength(3);
    expect(api.requests.every((request) => request.usage !== undefined)).toBe(true);
    expect(api.requests[2]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });
});
