import { describe, expect, it } from 'vitest';
import type { PromptInfo, PromptReading } from '../domain/prompts';
import { createPrompts, PROMPT_NOT_SENT } from './prompts-store';

const prompt: PromptInfo = { serverId: 's', serverName: 'S', name: 'simple', arguments: [] };

describe('a picked prompt', () => {
  it('closed while the server was giving it (Cancel, another thread): its messages are not sent anywhere', async () => {
    let give: (reading: PromptReading) => void = () => undefined;
    const sent: string[] = [];
    const { actions, store } = createPrompts(
      {
        listPrompts: async () => ({ ok: true, prompts: [] }),
        getPrompt: () => new Promise<PromptReading>((resolve) => (give = resolve)),
        completePromptArgument: async () => [],
        subscribe: () => () => undefined,
      },
      { sendPrompt: async (_messages, title) => (sent.push(title), true) },
    );
    actions.choose(prompt);
    const running = actions.run('send');
    actions.cancel();
    give({ ok: true, messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] });
    await running;
    expect(sent).toEqual([]);
    expect(store.getState().chosen).toBeUndefined();

    actions.choose(prompt);
    const next = actions.run('send');
    give({ ok: true, messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] });
    await next;
    expect(sent).toEqual(['simple']);
  });

  it('a suggestion arriving while the server gives the prompt does not stop it from being sent', async () => {
    let give: (reading: PromptReading) => void = () => undefined;
    let suggest: (values: string[]) => void = () => undefined;
    const sent: string[] = [];
    const { actions, store } = createPrompts(
      {
        listPrompts: async () => ({ ok: true, prompts: [] }),
        getPrompt: () => new Promise<PromptReading>((resolve) => (give = resolve)),
        completePromptArgument: () => new Promise<string[]>((resolve) => (suggest = resolve)),
        subscribe: () => () => undefined,
      },
      { sendPrompt: async (_messages, title) => (sent.push(title), true) },
    );
    actions.choose({ ...prompt, name: 'team', arguments: [{ name: 'department', isRequired: true }] });
    void actions.setValue('department', 'Sales');
    const running = actions.run('send');
    suggest(['Sales', 'Support']); // The answer to the typing lands while the prompt is on its way.
    await Promise.resolve();
    give({ ok: true, messages: [{ role: 'user', content: { type: 'text', text: 'Promote Eve' } }] });
    await running;
    expect(sent).toEqual(['team']);
    expect(store.getState().chosen).toBeUndefined();
  });

  it('refused as it is sent (a turn began in the thread, here or in another tab): the form comes back as filled, and says why', async () => {
    const { actions, store } = createPrompts(
      {
        listPrompts: async () => ({ ok: true, prompts: [] }),
        getPrompt: async () => ({ ok: true, messages: [{ role: 'user', content: { type: 'text', text: 'Promote' } }] }),
        completePromptArgument: async () => [],
        subscribe: () => () => undefined,
      },
      { sendPrompt: async () => false },
    );
    actions.choose({ ...prompt, name: 'team', arguments: [{ name: 'department', isRequired: true }] });
    void actions.setValue('department', 'Sales');
    await actions.run('send');
    expect(store.getState().chosen).toMatchObject({
      prompt: { name: 'team' },
      values: { department: 'Sales' },
      isRunning: false,
      error: PROMPT_NOT_SENT,
    });
  });
});
