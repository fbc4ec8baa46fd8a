// Prompt caching as the app sends it, measured by the contract fake's cache accounting (fake-anthropic-cache.ts):
// each request reads what the one before it wrote, and the trace of every model call says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCallTrace } from '../../src/domain/trace';
import { sendMessage } from '../../src/turns/turn-runner';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { startReportServer } from '../fixtures/report-server';

let reports: Awaited<ReturnType<typeof startReportServer>>;
let app: TestApp;

beforeAll(async () => {
  [reports, app] = await Promise.all([
    startReportServer({ resultChars: 10_000 }),
    startTestApp({ apiKey: 'sk-ant-t' }),
  ]);
  await app.registry.register({ id: 'reports', name: 'Reports', url: reports.url }, 'user');
});

afterAll(async () => {
  await app?.close();
  await reports?.close();
});

const ask = (threadId: string, text: string) =>
  sendMessage(app.deps, threadId, text, {
    askApproval: () => Promise.resolve('allow-once'),
    signal: new AbortController().signal,
  });

describe('prompt caching', () => {
  it('each request of a tool thread reads the previous request from the cache; the trace shows reads and writes', async () => {
    const { api, deps, opened } = app;
    const thread = await opened.storage.threads.create(deps.profileId, {
      title: 'Cache',
      enabledServerIds: ['reports'],
      // The system prompt is the thread's own text, the same in every request: it never breaks the cached prefix.
      systemPrompt: 'Answer from the quarterly report only.',
    });
    const first = api.requests.length;
    for (const section of ['Q1', 'Q2']) {
      api.script(
        { toolUses: [{ name: 'mcp__reports__read_report', input: { section } }] },
        { text: `Section ${section} is fine.` },
      );
      expect(await ask(thread.id, `What does ${section} say?`)).toEqual({ status: 'done' });
    }
    const sent = api.requests.slice(first);
    expect(sent).toHaveLength(4);
    // The report (about 2,500 tokens) arrives in the second request, which writes it; every later one reads it back.
    expect(sent[1]?.usage?.cache_creation_input_tokens).toBeGreaterThan(2_000);
    for (const [i, request] of sent.slice(2).entries()) {
      const before = sent[i + 1]!.usage!;
      expect(request.usage?.cache_read_input_tokens).toBe(
        before.input_tokens + before.cache_read_input_tokens + before.cache_creation_input_tokens,
      );
    }
    const calls = (await opened.storage.messages.list(thread.id)).items
      .flatMap((m) => m.trace)
      .filter((t): t is ModelCallTrace => t.kind === 'model-call');
    expect(calls.map((c) => c.usage?.cacheRead ?? 0)).toEqual(sent.map((r) => r.usage?.cache_read_input_tokens));
    expect(calls.map((c) => c.usage?.cacheWrite ?? 0)).toEqual(sent.map((r) => r.usage?.cache_creation_input_tokens));
  });
});
