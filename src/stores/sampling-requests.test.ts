import { describe, expect, it } from 'vitest';
import type { SamplingRequest } from '../domain/sampling';
import { createSamplingRequests, type SamplingTurn } from './sampling-requests';

const request: SamplingRequest = {
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  maxTokens: 10,
  modelHints: [],
  priorities: {},
};
const server = { id: 'everything', name: 'Everything' };

function setup(fails = false) {
  let runs = 0;
  const turn: SamplingTurn = {
    threadId: 'thread-1',
    plan: { model: 'claude-test', maxTokens: 10 },
    signal: new AbortController().signal,
    run: () => {
      runs++;
      if (fails) return Promise.reject(new Error('The API answered 529 (overloaded).'));
      return Promise.resolve({ model: 'claude-test', text: 'Hello', stopReason: 'end_turn' });
    },
    isAllowed: false,
    allowForThread: () => Promise.resolve(),
    stopAllowing: () => Promise.resolve(),
  };
  let count = 0;
  const requests = createSamplingRequests(
    () => `s-${++count}`,
    () => Promise.resolve(turn),
  );
  return { requests, runs: () => runs };
}

const until = <T>(requests: ReturnType<typeof setup>['requests'], pick: () => T | undefined) =>
  new Promise<T>((resolve) => {
    const check = () => {
      const found = pick();
      if (found === undefined) return false;
      resolve(found);
      return true;
    };
    if (check()) return;
    const stop = requests.store.subscribe(() => check() && stop());
  });

describe('sampling requests waiting for the person', () => {
  it('does not run before approval, and a rejection reaches the server as an error', async () => {
    const { requests, runs } = setup();
    const asked = requests.sampling(request, server);
    const pending = await until(requests, () => requests.store.getState().samplings[0]);
    expect(runs()).toBe(0);
    pending.reject();
    await expect(asked).rejects.toThrow('The person rejected the sampling request.');
    expect(runs()).toBe(0);
  });

  it('tells the server the model call failed, not that an answer was rejected, when the person gives up on it', async () => {
    const { requests, runs } = setup(true);
    const asked = requests.sampling(request, server);
    const pending = await until(requests, () => requests.store.getState().samplings[0]);
    pending.approve({ texts: ['Hi'] });
    const failed = await until(requests, () =>
      requests.store.getState().samplings.find((p) => p.stage.kind === 'failed'),
    );
    expect(runs()).toBe(1);
    failed.reject();
    await expect(asked).rejects.toThrow('The request failed, and the person did not try it again.');
  });
});
