// Prompt caching as the app sends it, measured by the contract fake's cache accounting (fake-anthropic-cache.ts):
// each request reads what the one before it wrote, and the trace of every model call says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAppContext } from '../../src/domain/app-context';
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

  it("an app's context updated before each turn reaches the model, and the next turn still reads the conversation from the cache", async () => {
    const { api, deps, opened } = app;
    const thread = await opened.storage.threads.create(deps.profileId, {
      title: 'App context',
      enabledServerIds: ['reports'],
      systemPrompt: 'Answer from the quarterly report only.',
    });
    const sections = ['Q1', 'Q2', 'Q3'];
    const viewport = (section: string) => `The map shows the ${section} sales regions of Lyon.`;
    const first = api.requests.length;
    for (const section of sections) {
      // As the page stores an app's ui/update-model-context (stores/mcp-apps.ts): the latest replaces the one before.
      await opened.storage.threads.update(
        thread.id,
        (current) => ({ appContexts: withAppContext(current.appContexts, 'toolu_map', 'reports', viewport(section)) }),
        { isActivity: false },
      );
      api.script(
        { toolUses: [{ name: 'mcp__reports__read_report', input: { section } }] },
        { text: `Section ${section} is fine.` },
      );
      expect(await ask(thread.id, `What does ${section} say?`)).toEqual({ status: 'done' });
    }
    const sent = api.requests.slice(first);
    expect(sent).toHaveLength(6);
    // Every request reads back all that the one before it cached, also the first request of a turn after an update:
    // the conversation (with each ~2,500-token report) is never written to the cache again.
    for (const [i, request] of sent.slice(1).entries()) {
      const before = sent[i]!.usage!;
      expect(request.usage?.cache_read_input_tokens).toBe(
        before.cache_read_input_tokens + before.cache_creation_input_tokens,
      );
    }
    expect(sent[2]!.usage!.cache_read_input_tokens).toBeGreaterThan(2_500);
    // Each request carries the app's latest words, marked as the apps', and none it replaced.
    for (const [i, request] of sent.entries()) {
      const body = JSON.stringify(request.body);
      const turn = Math.floor(i / 2);
      expect(body).toContain(viewport(sections[turn]!));
      expect(body).toContain("their own words, not the person's");
      for (const older of sections.slice(0, turn)) expect(body).not.toContain(viewport(older));
    }
    // They are no message of the person: the stored thread holds what was said, not what the app reported.
    const stored = JSON.stringify((await opened.storage.messages.list(thread.id)).items.map((m) => m.blocks));
    for (const section of sections) expect(stored).not.toContain(viewport(section));
  });
});
