import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createServerRequests, endQuestionsWithTurns } from './server-requests';

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
      () => running,
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
