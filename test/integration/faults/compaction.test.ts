// Long threads against the contract fake (issue #17 item 4 and "Bad input"): past 75% of the 200k window the context is
// compacted once (cleared tool results, the API's compaction, or a summary by a model call), the next request fits,
// every message stays stored, and an endpoint that refuses the compaction beta gets summaries instead, said once.
import { describe, expect, it } from 'vitest';
import { SUMMARY_INSTRUCTION } from '../../../src/agent/compaction';
import { CLEARED_RESULT_TEXT, SUMMARY_PREFIX } from '../../../src/agent/compaction-context';
import type { ContentBlock } from '../../../src/domain/message';
import type { CompactionTrace, TraceEntry } from '../../../src/domain/trace';
import { retryTurn, sendMessage } from '../../../src/turns/turn-runner';
import type { RecordedRequest } from '../../fakes/fake-anthropic';
import { faultAppsPerTest, type FaultApp } from './turn-harness';

const { app: startApp } = faultAppsPerTest();
const WINDOW = 200_000;
const THRESHOLD = WINDOW * 0.75;

/** A thread of `turns` question/answer pairs of about `tokensEach` tokens per answer. */
async function longThread(app: FaultApp, model: string, turns: number, tokensEach: number) {
  const thread = await app.opened.storage.threads.create(app.profileId, { title: 'Long', model });
  await appendTurns(app, thread.id, 0, turns, tokensEach);
  return thread.id;
}

async function appendTurns(app: FaultApp, threadId: string, from: number, turns: number, tokensEach: number) {
  for (let i = from; i < from + turns; i++) {
    await app.opened.storage.messages.append(threadId, {
      role: 'user',
      blocks: [{ type: 'text', text: `Question ${i}` }],
      status: 'complete',
    });
    await app.opened.storage.messages.append(threadId, {
      role: 'assistant',
      blocks: [{ type: 'text', text: `Answer ${i}: ${'x'.repeat(tokensEach * 4)}` }],
      status: 'complete',
    });
  }
}

const send = (app: FaultApp, threadId: string, text: string) =>
  sendMessage(app.deps, threadId, text, {
    askApproval: async () => 'allow-once',
    signal: new AbortController().signal,
  });

const lastUserText = (request: RecordedRequest): string => {
  const content = request.body.messages.at(-1)?.content;
  return Array.isArray(content) ? content.map((b) => ('text' in b ? b.text : '')).join(' ') : String(content);
};
const firstBlock = (request: RecordedRequest) => {
  const content = request.body.messages[0]?.content;
  return Array.isArray(content) ? (content[0] as unknown as Record<string, unknown>) : undefined;
};
const compactionsOf = (trace: readonly TraceEntry[]) =>
  trace.filter((e): e is CompactionTrace => e.kind === 'compaction');

async function answerTrace(app: FaultApp, threadId: string) {
  const { items } = await app.opened.storage.messages.list(threadId);
  return { count: items.length, trace: items.at(-1)?.trace ?? [], last: items.at(-1) };
}

describe('long threads: compaction against the contract fake', () => {
  it('a summary by a model call when the model has no server compaction: the next request fits, every message stays', async () => {
    const app = await startApp();
    const threadId = await longThread(app, 'claude-sonnet-5', 32, 5_000);
    app.api.script({ text: 'The person asked 32 questions; each answer was long.' }, { text: 'Here is question 33.' });
    expect(await send(app, threadId, 'Question 32')).toEqual({ status: 'done' });

    const [summaryCall, answerCall] = app.api.requests;
    expect(summaryCall?.inputTokens).toBeGreaterThan(THRESHOLD * 0.9);
    expect(lastUserText(summaryCall!)).toContain(SUMMARY_INSTRUCTION);
    expect(answerCall?.inputTokens).toBeLessThan(THRESHOLD / 4);
    expect(String(firstBlock(answerCall!)?.text)).toContain(SUMMARY_PREFIX);
    // The summary opens the context; the person's message follows it (one user turn, as the API merges them).
    expect(answerCall?.body.messages).toHaveLength(1);
    expect(lastUserText(answerCall!)).toMatch(/long\. Question 32$/);

    const { count, trace, last } = await answerTrace(app, threadId);
    expect(count).toBe(32 * 2 + 2); // every message still stored
    expect(last?.blocks).toEqual([{ type: 'text', text: 'Here is question 33.' }]);
    const [compaction] = compactionsOf(trace);
    expect(compaction).toMatchObject({ method: 'client' });
    expect(compaction!.tokensBefore).toBeGreaterThan(THRESHOLD);
    expect(compaction!.tokensAfter).toBeLessThan(THRESHOLD / 4);
    const records = (await app.opened.storage.compactions.list(threadId)).items;
    expect(records.map((r) => [r.method, r.firstKeptSeq])).toEqual([['client', 64]]);

    // One step: the next turn sends the same summary prefix and compacts nothing.
    app.api.script({ text: 'And 34.' });
    await send(app, threadId, 'Question 33');
    expect(app.api.requests).toHaveLength(3);
    expect(firstBlock(app.api.requests[2]!)).toEqual(firstBlock(answerCall!));
    expect((await app.opened.storage.compactions.list(threadId)).items).toHaveLength(1);
  });

  it('a retried attempt neither counts in the turn nor starts what is kept: the question stays after the summary', async () => {
    const app = await startApp();
    const threadId = await longThread(app, 'claude-sonnet-5', 32, 5_000);
    await app.opened.storage.messages.append(threadId, {
      role: 'user',
      blocks: [{ type: 'text', text: 'Question 32' }],
      status: 'complete',
    });
    // A long answer cut off and retried once, then a second attempt that failed at once.
    const halfAnswer = `Half an answer: ${'y'.repeat(90_000 * 4)}`;
    const cut = await app.opened.storage.messages.append(threadId, {
      role: 'assistant',
      blocks: [{ type: 'text', text: halfAnswer }],
      status: 'error',
      error: 'The answer stopped arriving before it was complete; what arrived is kept.',
    });
    await app.opened.storage.messages.update(cut.id, { retried: true });
    await app.opened.storage.messages.append(threadId, {
      role: 'assistant',
      blocks: [],
      status: 'error',
      error: 'The API is overloaded right now (529). Retry in a little while.',
    });
    app.api.script({ text: 'The person asked 32 questions.' }, { text: 'Here is question 33.' });
    const options = { askApproval: async () => 'allow-once' as const, signal: new AbortController().signal };
    expect(await retryTurn(app.deps, threadId, options)).toEqual({ status: 'done' });
    const answerCall = app.api.requests.at(-1)!;
    expect(lastUserText(answerCall)).toMatch(/Question 32$/);
    expect(JSON.stringify(app.api.requests.map((r) => r.body.messages))).not.toContain('Half an answer');
  });

  it('the API compacts server-side where the model supports it; later requests send its block back and fit', async () => {
    const app = await startApp();
    const threadId = await longThread(app, 'claude-sonnet-4-6', 32, 5_000);
    app.api.script({ text: 'Answer after compaction.' }, { text: 'Next answer.' });
    await send(app, threadId, 'Question 32');
    const first = app.api.requests[0]!;
    expect(first.headers['anthropic-beta']).toContain('compact-2026-01-12');
    expect(first.body).toMatchObject({ context_management: { edits: [{ type: 'compact_20260112' }] } });
    expect(first.isCompacted).toBe(true);
    const records = (await app.opened.storage.compactions.list(threadId)).items;
    expect(records.map((r) => r.method)).toEqual(['server']);
    const { trace } = await answerTrace(app, threadId);
    expect(compactionsOf(trace)).toMatchObject([{ method: 'server' }]);
    // The summary step read the whole context it closed; the API bills it but leaves it out of the top-level counts
    // (usage.iterations): the call's usage, and so the thread's cost and the spending limits, count it.
    // Exactly the answer's own input (the top-level counts, also listed as the 'message' step) plus the summary
    // step's: neither left out nor counted twice.
    const usage = trace.find((entry) => entry.kind === 'model-call')?.usage;
    const answered = first.usage!;
    expect(usage!.input + usage!.cacheRead + usage!.cacheWrite).toBe(
      answered.input_tokens +
        answered.cache_read_input_tokens +
        answered.cache_creation_input_tokens +
        first.inputTokens!,
    );

    await send(app, threadId, 'Question 33');
    const later = app.api.requests[1]!;
    expect(firstBlock(later)).toMatchObject({
      type: 'compaction',
      encrypted_content: records[0]?.block?.encrypted_content,
    });
    expect(later.inputTokens).toBeLessThan(THRESHOLD / 10);
    expect('context_management' in later.body).toBe(false);
    expect((await answerTrace(app, threadId)).count).toBe(32 * 2 + 4);
  });

  it('an endpoint that refuses the compaction beta: the app summarizes itself, says so once, and never asks again', async () => {
    const app = await startApp({ api: { supportedBetas: [] } });
    const threadId = await longThread(app, 'claude-sonnet-4-6', 32, 5_000);
    app.api.script({ text: 'Summary one.' }, { text: 'Answer one.' });
    expect(await send(app, threadId, 'Question 32')).toEqual({ status: 'done' });
    const [refused, summary, answer] = app.api.requests;
    expect(refused?.headers['anthropic-beta']).toContain('compact-2026-01-12');
    expect(refused?.usage).toBeUndefined(); // answered 400
    expect(lastUserText(summary!)).toContain(SUMMARY_INSTRUCTION);
    expect(answer?.inputTokens).toBeLessThan(THRESHOLD / 4);
    const [note] = compactionsOf((await answerTrace(app, threadId)).trace).map((c) => c.note);
    expect(note).toMatch(
      /^The model endpoint refused the API’s server-side compaction \(.*Unexpected value\(s\) `compact-2026-01-12`/,
    );

    // The thread grows past the threshold again: a summary straight away, no beta, no second note.
    await appendTurns(app, threadId, 33, 32, 5_000);
    app.api.script({ text: 'Summary two.' }, { text: 'Answer two.' });
    expect(await send(app, threadId, 'Question 65')).toEqual({ status: 'done' });
    expect(app.api.requests).toHaveLength(5);
    expect(app.api.requests.slice(3).map((r) => r.headers['anthropic-beta'] ?? '')).toEqual(['', '']);
    const records = (await app.opened.storage.compactions.list(threadId)).items;
    expect(records.map((r) => r.method)).toEqual(['client', 'client']);
    expect(records.filter((r) => r.note !== undefined)).toHaveLength(1);
  });

  it('clears old tool results first when that alone leaves ample room: no summary call', async () => {
    const app = await startApp();
    const thread = await app.opened.storage.threads.create(app.profileId, { title: 'Tools', model: 'claude-sonnet-5' });
    for (let i = 0; i < 60; i++) {
      const use: ContentBlock = { type: 'tool_use', id: `toolu_${i}`, name: 'mcp__s__fetch', input: { page: i } };
      const result: ContentBlock = {
        type: 'tool_result',
        tool_use_id: `toolu_${i}`,
        content: [{ type: 'text', text: 'r'.repeat(10_000) }],
      };
      for (const [role, blocks] of [
        ['user', [{ type: 'text', text: `Fetch page ${i}` }]],
        ['assistant', [use]],
        ['user', [result]],
        ['assistant', [{ type: 'text', text: `Page ${i} says r.` }]],
      ] as const)
        await app.opened.storage.messages.append(thread.id, { role, blocks: [...blocks], status: 'complete' });
    }
    app.api.script({ text: 'Done.' });
    await send(app, thread.id, 'Fetch page 60');
    expect(app.api.requests).toHaveLength(1);
    const request = app.api.requests[0]!;
    expect(request.inputTokens).toBeLessThan(THRESHOLD / 2);
    expect(JSON.stringify(request.body.messages)).toContain(CLEARED_RESULT_TEXT);
    expect(compactionsOf((await answerTrace(app, thread.id)).trace)).toMatchObject([{ method: 'cleared' }]);
    // The thread still holds every result in full.
    const { items } = await app.opened.storage.messages.list(thread.id);
    expect(items.filter((m) => JSON.stringify(m.blocks).includes('r'.repeat(10_000)))).toHaveLength(60);
  });
});
