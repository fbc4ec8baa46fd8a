// Fault matrix, model API: each failure shows the person a clear message in the thread and keeps what was stored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from '../../fakes/fake-anthropic';
import { startFaultMcpServer, type FaultMcpServer } from '../../fixtures/fault-mcp-server';
import { sendMessage } from '../../../src/turns/turn-runner';
import { startFaultApp, storedMessages, type FaultApp } from './turn-harness';

let app: FaultApp;
let mcp: FaultMcpServer;
beforeAll(async () => {
  [app, mcp] = await Promise.all([startFaultApp({ maxRetries: 0 }), startFaultMcpServer()]);
  await app.addServer('faults', mcp.url);
});
afterAll(async () => {
  await app?.close();
  await mcp?.stop();
});
afterEach(() => expect(app.api.pendingTurns).toBe(0));

/** A thread with one finished exchange, open in the chat store. */
async function threadWithHistory(title: string): Promise<string> {
  await app.chat.actions.newThread();
  const threadId = app.chat.store.getState().activeThreadId!;
  app.api.script({ text: 'First answer.' });
  await app.chat.actions.send('First question');
  await app.chat.actions.renameThread(threadId, title);
  return threadId;
}

/** What the thread shows for its last answer: its status and the message rendered under it. */
const lastShown = () => {
  const last = app.chat.store.getState().messages.at(-1);
  return { status: last?.status, error: last?.error };
};

describe('model API faults: the message in the thread, and nothing stored is lost', () => {
  it.each<[string, Turn, string]>([
    ['401', { error: { status: 401 } }, 'The API key was refused (401). Check it in Settings.'],
    ['403', { error: { status: 403 } }, 'The API key may not use this model or feature (403).'],
    [
      '429 with retry-after (retries used up)',
      { error: { status: 429, retryAfterSeconds: 30 } },
      'The API is rate-limiting this key (429). Wait a moment and retry.',
    ],
    ['500', { error: { status: 500 } }, 'The API had an internal error. Retry in a little while. (HTTP 500)'],
    ['529 overloaded', { error: { status: 529 } }, 'The API is overloaded right now (529). Retry in a little while.'],
  ])(
    '%s: the answer shows the error, the earlier exchange and the question are kept, the next message works',
    async (label, fault, shown) => {
      const threadId = await threadWithHistory(`API ${label}`);
      app.api.script(fault);
      await app.chat.actions.send('Second question');
      expect(lastShown()).toEqual({ status: 'error', error: shown });
      expect(app.chat.store.getState().notice).toBeUndefined();
      expect(await storedMessages(app, threadId)).toEqual([
        { role: 'user', status: 'complete', text: 'First question' },
        { role: 'assistant', status: 'complete', text: 'First answer.' },
        { role: 'user', status: 'complete', text: 'Second question' },
        { role: 'assistant', status: 'error', text: '', error: shown },
      ]);
      app.api.script({ text: 'Working again.' });
      await app.chat.actions.send('Third question');
      expect(lastShown()).toEqual({ status: 'complete', error: undefined });
      expect((await storedMessages(app, threadId)).map((m) => m.text)).toEqual([
        'First question',
        'First answer.',
        'Second question',
        '',
        'Third question',
        'Working again.',
      ]);
      expect(app.chat.store.getState().threads.map((t) => t.title)).toContain(`API ${label}`);
    },
  );

  it('a stream cut mid-message keeps the part that arrived, with a note', async () => {
    const threadId = await threadWithHistory('Cut stream');
    app.api.script({ text: ['Part one, ', 'part two, ', 'part three.'], cutAfterChunks: 2 });
    await app.chat.actions.send('Tell me a long story');
    const shown = lastShown();
    expect(shown.status).toBe('error');
    expect(shown.error).toMatch(/^The answer stopped arriving before it was complete; what arrived is kept\./);
    expect((await storedMessages(app, threadId)).at(-1)).toMatchObject({
      role: 'assistant',
      status: 'error',
      text: 'Part one, part two, ',
    });
    expect((await storedMessages(app, threadId)).slice(0, 2).map((m) => m.text)).toEqual([
      'First question',
      'First answer.',
    ]);
    // Retry: what arrived stays to read (as the note says), marked retried, and the model is not fed it.
    app.api.script({ text: 'The whole story.' });
    await app.chat.actions.retry();
    expect(lastShown()).toEqual({ status: 'complete', error: undefined });
    const stored = await storedMessages(app, threadId);
    expect(stored.slice(-2)).toMatchObject([
      { role: 'assistant', status: 'error', text: 'Part one, part two, ' },
      { role: 'assistant', status: 'complete', text: 'The whole story.' },
    ]);
    const shownAttempt = app.chat.store.getState().messages.at(-2);
    expect(shownAttempt).toMatchObject({ status: 'error', retried: true });
    expect(JSON.stringify(app.api.requests.at(-1)!.body.messages)).not.toContain('Part one');
    expect(app.api.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('an overloaded error in the middle of the stream says "overloaded" and keeps the partial answer', async () => {
    const threadId = await threadWithHistory('Overloaded mid-stream');
    app.api.script({ text: ['Half an ', 'answer'], midStreamError: { afterChunks: 1, type: 'overloaded_error' } });
    await app.chat.actions.send('Go on');
    expect(lastShown()).toEqual({
      status: 'error',
      error: 'The API is overloaded right now (529). Retry in a little while.',
    });
    expect((await storedMessages(app, threadId)).at(-1)).toMatchObject({ status: 'error', text: 'Half an ' });
  });

  it('429 with retry-after and retries left: waits as told and the answer arrives', async () => {
    const patient = await startFaultApp({ maxRetries: 2 });
    try {
      await patient.chat.actions.newThread();
      patient.api.script({ error: { status: 429, retryAfterSeconds: 1 } }, { text: 'After the wait.' });
      await patient.chat.actions.send('Hello');
      expect(patient.chat.store.getState().messages.map((m) => [m.status, m.error])).toEqual([
        ['complete', undefined],
        ['complete', undefined],
      ]);
      expect(patient.api.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
    } finally {
      await patient.close();
    }
  });

  it('a tool_use with truncated JSON input reaches no tool: the model is told the arguments are invalid, and the turn goes on', async () => {
    const thread = await app.opened.storage.threads.create(app.profileId, {
      title: 'Bad tool JSON',
      enabledServerIds: ['faults'],
    });
    await app.registry.connect('faults');
    app.api.script({ invalidToolJson: { name: 'mcp__faults__big-result' } }, { text: 'I will ask again properly.' });
    const outcome = await sendMessage(app.deps, thread.id, 'Make a big result', {
      askApproval: async () => 'allow-once',
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ status: 'done' });
    const stored = await storedMessages(app, thread.id);
    expect(stored.map((m) => `${m.role}:${m.status}`)).toEqual([
      'user:complete',
      'assistant:complete',
      'user:complete',
      'assistant:complete',
    ]);
    expect(stored[2]?.text).toContain('Invalid arguments for "big-result"');
    expect(stored[2]?.text).toContain('megabytes');
    expect(stored[3]?.text).toBe('I will ask again properly.');
  });

  it('a tool_use whose input is not JSON at all ends the answer with a message, and the thread keeps working', async () => {
    const threadId = await threadWithHistory('Non-JSON tool input');
    app.api.script({ invalidToolJson: { name: 'mcp__faults__whoami', partialJson: '{"query": abc}' } });
    await app.chat.actions.send('Who are you?');
    expect(lastShown().status).toBe('error');
    expect(lastShown().error).toMatch(
      /^The answer stopped arriving before it was complete; what arrived is kept\. \(.*JSON/,
    );
    app.api.script({ text: 'Recovered.' });
    await app.chat.actions.send('Try again');
    expect((await storedMessages(app, threadId)).map((m) => m.status)).toEqual([
      'complete',
      'complete',
      'complete',
      'error',
      'complete',
      'complete',
    ]);
  });
});
