// Sampling "Allow for this thread" (issue #20, item 4) through the real chat store, registry and turn runner, against
// server-everything on 127.0.0.1 (registered twice, as two servers) and the contract fake of the Messages API: once
// allowed, the server's later requests in the thread run and answer without asking, and are still shown; another
// server, another thread, or the same server at another origin asks again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../src/agent/anthropic-model';
import { EMPTY_APP_CONFIG } from '../../src/domain/app-config';
import { serverOrigin } from '../../src/domain/server-trust';
import type { Registry } from '../../src/mcp/registry';
import { createLocalLocks } from '../../src/platform/locks';
import { createToolIndex } from '../../src/search/tool-index';
import { createChat } from '../../src/stores/chat-store';
import { createSamplingRequests, samplingTurnFinder } from '../../src/stores/sampling-requests';
import { syncToolIndex } from '../../src/turns/thread-tools';
import type { TurnRunnerDeps } from '../../src/turns/turn-runner';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { sha256Hex } from '../fakes/memory-stores';
import { createStorageRegistry, openTestProfile } from '../fakes/test-app';
import { openTestStorage, type TestStorage } from '../fakes/test-storage';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';

let everything: ServerEverything;
let api: FakeAnthropic;
let opened: TestStorage;
let registry: Registry;
let chat: ReturnType<typeof createChat>;
let samplings: ReturnType<typeof createSamplingRequests>;
let stopSync: () => void;

beforeAll(async () => {
  [everything, api, opened] = await Promise.all([
    startServerEverything({ mode: 'streamableHttp' }),
    startFakeAnthropic(),
    openTestStorage(),
  ]);
  const { storage } = opened;
  const profile = await openTestProfile(storage, { apiKey: 'sk-ant-sampling', toolSearch: { deferral: 'never' } });
  const createModel = (apiKey: string) =>
    createAnthropicModel({ apiKey, baseUrl: api.url, fetch: (input, init) => fetch(input, init), maxRetries: 0 });
  let find: Parameters<typeof createSamplingRequests>[1] = () => Promise.resolve(undefined);
  let count = 0;
  samplings = createSamplingRequests(
    () => `sampling-${++count}`,
    (server, request) => find(server, request),
  );
  registry = createStorageRegistry(storage, profile.id, { sampling: samplings.sampling });
  const index = createToolIndex();
  stopSync = syncToolIndex(registry, index);
  const deps: TurnRunnerDeps = {
    storage,
    registry,
    index,
    profileId: profile.id,
    defaults: EMPTY_APP_CONFIG.defaults,
    createModel,
    sha256Hex,
    now: () => Date.now(),
    locks: createLocalLocks(),
  };
  chat = createChat(deps);
  find = samplingTurnFinder(
    () => chat.actions.runningTurn(),
    deps,
    (id) => registry.get(id) && serverOrigin(registry.get(id)!.config.url),
  );
  await registry.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
  await registry.register({ id: 'other', name: 'Other', url: everything.url }, 'user');
  await Promise.all([registry.connect('everything'), registry.connect('other')]);
});

afterAll(async () => {
  chat?.dispose();
  stopSync?.();
  await registry?.close();
  await api?.stop();
  opened?.close();
  await everything?.stop();
});

afterEach(() => {
  expect(api.pendingTurns).toBe(0);
});

/** Resolves once the store holds what `pick` finds. */
function until<S, T>(
  store: { getState(): S; subscribe(listener: (state: S) => void): () => void },
  pick: (state: S) => T | undefined,
): Promise<T> {
  return new Promise((resolve) => {
    const found = pick(store.getState());
    if (found !== undefined) return resolve(found);
    const stop = store.subscribe((state) => {
      const next = pick(state);
      if (next !== undefined) {
        stop();
        resolve(next);
      }
    });
  });
}

/** Sends a message whose model calls the sampling tool of `serverId` (the tool allowed once), in the open thread. */
async function sendSamplingTurn(serverId: string, prompt: string, ...then: Parameters<FakeAnthropic['script']>) {
  api.script({ toolUses: [{ name: `mcp__${serverId}__trigger-sampling-request`, input: { prompt } }] }, ...then);
  const sent = chat.actions.send(`Ask ${serverId} to sample`);
  const approval = await until(chat.store, (s) => s.pendingApprovals[0]);
  approval.answer('allow-once');
  return sent;
}

async function newThreadWith(serverIds: string[]) {
  await chat.actions.newThread();
  const threadId = chat.store.getState().activeThreadId!;
  await chat.actions.setThreadServers(threadId, serverIds);
  return threadId;
}

const cardOf = (prompt: string) =>
  until(samplings.store, (s) =>
    s.samplings.find((p) => JSON.stringify(p.request.messages).includes(prompt) && p.stage.kind !== 'running'),
  );

describe('sampling "Allow for this thread"', () => {
  it('runs and answers the same server’s later requests in the thread without asking, still shown, until stopped', async () => {
    const threadId = await newThreadWith(['everything', 'other']);
    const first = sendSamplingTurn('everything', 'first poem');
    const asked = await cardOf('first poem');
    expect(asked).toMatchObject({ stage: { kind: 'review' }, allowedForThread: false });
    api.script({ text: 'First answer' }, { text: 'Done one.' });
    asked.allowForThread({ texts: ['first poem, edited'] });
    // The answer went back without "Send answer": the turn finishes, the card stays with what was sent and answered.
    await first;
    expect(api.requests.at(-1)!.body.messages.at(-1)!.content).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'tool_result' })]),
    );
    expect(JSON.stringify(api.requests.at(-1)!.body.messages)).toContain('First answer');
    expect((await cardOf('first poem')).stage).toMatchObject({
      kind: 'sent',
      reply: { text: 'First answer' },
      request: { messages: [{ content: [{ text: 'first poem, edited' }] }] },
    });
    expect((await opened.storage.threads.get(threadId))!.samplingAllowed).toEqual({
      everything: { origin: serverOrigin(everything.url) },
    });

    // The same server again in this thread: no review, no second confirmation.
    await sendSamplingTurn('everything', 'second poem', { text: 'Second answer' }, { text: 'Done two.' });
    const second = await cardOf('second poem');
    expect(second).toMatchObject({ allowedForThread: true, stage: { kind: 'sent', reply: { text: 'Second answer' } } });
    expect(JSON.stringify(api.requests.at(-1)!.body.messages)).toContain('Second answer');

    // Another server in the same thread still asks.
    const fromOther = sendSamplingTurn('other', 'other poem');
    const otherCard = await cardOf('other poem');
    expect(otherCard).toMatchObject({ serverId: 'other', allowedForThread: false, stage: { kind: 'review' } });
    api.script({ text: 'Refused.' });
    otherCard.reject();
    await fromOther;

    // Stop allowing: the next request from the server asks again.
    second.stopAllowing();
    await until(samplings.store, (s) =>
      s.samplings.find((p) => p.id === second.id)?.stoppedAllowing ? true : undefined,
    );
    expect((await opened.storage.threads.get(threadId))!.samplingAllowed).toEqual({});
    const again = sendSamplingTurn('everything', 'third poem');
    const third = await cardOf('third poem');
    expect(third).toMatchObject({ allowedForThread: false, stage: { kind: 'review' } });
    api.script({ text: 'Refused.' });
    third.reject();
    await again;
    second.dismiss();
    expect(samplings.store.getState().samplings.some((p) => p.id === second.id)).toBe(false);
  });

  it('asks in another thread, and asks again when the allowance was given at another origin', async () => {
    const allowedThread = await newThreadWith(['everything']);
    api.script({ text: 'Hello.' });
    await chat.actions.send('Hello');
    await opened.storage.threads.update(allowedThread, () => ({
      samplingAllowed: { everything: { origin: serverOrigin(everything.url) } },
    }));
    expect(await newThreadWith(['everything'])).not.toBe(allowedThread);
    const elsewhere = sendSamplingTurn('everything', 'fourth poem');
    const fourth = await cardOf('fourth poem');
    expect(fourth).toMatchObject({ allowedForThread: false, stage: { kind: 'review' } });
    api.script({ text: 'Refused.' });
    fourth.reject();
    await elsewhere;

    // Allowed when "everything" answered at another origin: that was another server, so this one asks.
    const moved = await newThreadWith(['everything']);
    await opened.storage.threads.update(moved, () => ({
      samplingAllowed: { everything: { origin: 'https://old-home.example' } },
    }));
    const fromMoved = sendSamplingTurn('everything', 'fifth poem');
    const fifth = await cardOf('fifth poem');
    expect(fifth).toMatchObject({ allowedForThread: false, stage: { kind: 'review' } });
    api.script({ text: 'Refused.' });
    fifth.reject();
    await fromMoved;
  });
});
