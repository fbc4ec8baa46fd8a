import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createServerRequests, endQuestionsWithTurns, requestCaller } from './server-requests';

const server = { id: 'everything', name: 'Everything' };
const ask = (message: string) => ({
  mode: 'form' as const,
  message,
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } },
});

describe("a server's question during a turn", () => {
  it('belongs to the thread whose turn was running, and is cancelled when that turn ends (Stop too)', async () => {
    let running: string | undefined = 'A';
    const chat = createStore<{ runningThreadId?: string }>(() => ({ runningThreadId: 'A' }));
    let count = 0;
    const requests = createServerRequests(
      () => `q${++count}`,
      () => (running === undefined ? undefined : { threadId: running, isTurn: true }),
    );
    const stop = endQuestionsWithTurns(chat, requests);
    const fromA = requests.elicitation(ask('Your name?'), server);
    running = undefined;
    const outsideTurns = requests.elicitation(ask('Anyone there?'), server);
    expect(requests.store.getState().elicitations.map((e) => [e.message, e.threadId])).toEqual([
      ['Your name?', 'A'],
      ['Anyone there?', undefined],
    ]);

    chat.setState({ runningThreadId: undefined }); // The turn of A ends (stopped).
    expect(await fromA).toEqual({ action: 'cancel' });
    expect(requests.store.getState().elicitations.map((e) => e.message)).toEqual(['Anyone there?']);

    // A question with no turn stays until it is answered.
    chat.setState({ runningThreadId: 'B' });
    chat.setState({ runningThreadId: undefined });
    expect(requests.store.getState().elicitations).toHaveLength(1);
    requests.store.getState().elicitations[0]!.answer({ action: 'decline' });
    expect(await outsideTurns).toEqual({ action: 'decline' });
    stop();
  });
});

describe('whose call a server question comes during', () => {
  const turnIn = (threadId: string, enabledServerIds: string[]) => ({ threadId, enabledServerIds });

  it("is the running turn's when its thread has the server on, even while an app of another thread calls it", () => {
    expect(requestCaller(turnIn('A', ['everything']), 'B', 'everything')).toEqual({ threadId: 'A', isTurn: true });
  });

  it("is the app's thread when the running turn cannot call that server, or no turn runs", () => {
    expect(requestCaller(turnIn('A', ['other']), 'B', 'everything')).toEqual({ threadId: 'B', isTurn: false });
    expect(requestCaller(undefined, 'B', 'everything')).toEqual({ threadId: 'B', isTurn: false });
  });

  it("is the running turn's as a last guess, and nobody's outside any turn or app call", () => {
    expect(requestCaller(turnIn('A', []), undefined, 'everything')).toEqual({ threadId: 'A', isTurn: true });
    expect(requestCaller(undefined, undefined, 'everything')).toBeUndefined();
  });

  it("from an app's call is not cancelled when a turn of its thread ends (only the app's call ends it)", async () => {
    const chat = createStore<{ runningThreadId?: string }>(() => ({}));
    const requests = createServerRequests(
      () => 'q1',
      () => ({ threadId: 'B', isTurn: false }),
    );
    const stop = endQuestionsWithTurns(chat, requests);
    const asked = requests.elicitation(ask('Which color?'), server);
    chat.setState({ runningThreadId: 'B' });
    chat.setState({ runningThreadId: undefined });
    expect(requests.store.getState().elicitations.map((e) => [e.message, e.threadId])).toEqual([['Which color?', 'B']]);
    requests.store.getState().elicitations[0]!.answer({ action: 'accept', content: { name: 'Blue' } });
    expect(await asked).toEqual({ action: 'accept', content: { name: 'Blue' } });
    stop();
  });
});
