// Sampling "Allow for this thread" (issue #20, item 4) through the real chat store, registry and turn runner, against
// server-everything on 127.0.0.1 (registered twice, as two servers) and the contract fake of the Messages API: once
// allowed, the server's later requests in the thread run and answer without asking, and are still shown; another
// server, another thread, or the same server at another origin asks again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverOrigin } from '../../src/domain/server-trust';
import type { FakeAnthropic } from '../fakes/fake-anthropic';
import type { TestStorage } from '../fakes/test-storage';
import type { ServerEverything } from '../fixtures/server-everything';
import {
  newThreadWith as openThreadWith,
  sendSamplingTurn as send,
  startSamplingRig,
  until,
  type SamplingRig,
} from './sampling-rig';

let rig: SamplingRig;
let everything: ServerEverything;
let api: FakeAnthropic;
let opened: TestStorage;
let chat: SamplingRig['chat'];
let samplings: SamplingRig['samplings'];

beforeAll(async () => {
  rig = await startSamplingRig([
    { id: 'everything', name: 'Everything' },
    { id: 'other', name: 'Other' },
  ]);
  ({ everything, api, opened, chat, samplings } = rig);
});

afterAll(async () => {
  await rig?.close();
});

afterEach(() => {
  expect(api.pendingTurns).toBe(0);
});

/** Sends a message whose model calls the sampling tool of `serverId`; resolves when the turn ends. */
const sendSamplingTurn = (serverId: string, prompt: string, ...then: Parameters<FakeAnthropic['script']>) =>
  send(rig, serverId, { prompt }, ...then).then(({ sent }) => sent);

const newThreadWith = (serverIds: string[]) => openThreadWith(rig, serverIds);

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
