// The three tool-search modes against the contract fake: a scripted multi-turn tool thread (search, call the found
// tool, call it again on the next question, answer without tools) in which every request is one the real API accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolSearchSettings } from '../../../src/domain/tool-search-settings';
import { sendMessage } from '../../../src/turns/turn-runner';
import type { ScriptedTurn } from '../../fakes/fake-anthropic';
import { startTestApp, type TestApp } from '../../fakes/test-app';
import { startReportServer } from '../../fixtures/report-server';

let reports: Awaited<ReturnType<typeof startReportServer>>;

beforeAll(async () => {
  reports = await startReportServer({ resultChars: 6_000, extraTools: 40 });
});

afterAll(async () => {
  await reports?.close();
});

const READ = 'mcp__reports__read_report';
const read = (section: string) => ({ toolUses: [{ name: READ, input: { section } }] });

/** The model's side of the thread per mode: how it finds the report tool on the first question. */
const FIRST_QUESTION: Record<ToolSearchSettings['mode'], ScriptedTurn[]> = {
  client: [{ toolUses: [{ name: 'tool_search', input: { query: 'quarterly report section' } }] }, read('Q1')],
  anthropic: [{ toolUses: [{ name: 'tool_search', input: { query: 'quarterly report section' } }] }, read('Q1')],
  server: [{ serverToolSearch: { query: 'quarterly report section' }, ...read('Q1') }],
};

async function runThread(mode: ToolSearchSettings['mode']): Promise<{ app: TestApp; threadId: string }> {
  const app = await startTestApp({ apiKey: 'sk-ant-t', toolSearch: { mode, deferral: 'always' } });
  await app.registry.register({ id: 'reports', name: 'Reports', url: reports.url }, 'user');
  const thread = await app.opened.storage.threads.create(app.deps.profileId, {
    title: `Mode ${mode}`,
    enabledServerIds: ['reports'],
    systemPrompt: 'Answer from the report.',
  });
  const questions: [string, ScriptedTurn[]][] = [
    ['What does Q1 say?', [...FIRST_QUESTION[mode], { text: 'Q1 is steady.' }]],
    ['And Q2?', [read('Q2'), { text: 'Q2 is better.' }]],
    ['Thanks, in one word?', [{ text: 'Better.' }]],
  ];
  for (const [text, turns] of questions) {
    app.api.script(...turns);
    const outcome = await sendMessage(app.deps, thread.id, text, {
      askApproval: () => Promise.resolve('allow-once'),
      signal: new AbortController().signal,
    });
    expect(outcome, `${mode}: ${text}`).toEqual({ status: 'done' });
  }
  return { app, threadId: thread.id };
}

describe('tool-search modes against the contract fake', () => {
  for (const mode of ['client', 'anthropic', 'server'] as const) {
    it(`${mode}: every request of a multi-turn tool thread is accepted and the thread's answers are stored`, async () => {
      const { app, threadId } = await runThread(mode);
      try {
        expect(app.api.requests.length).toBeGreaterThanOrEqual(5);
        for (const request of app.api.requests) expect(request.usage, `request ${request.index}`).toBeDefined();
        const { items } = await app.opened.storage.messages.list(threadId);
        expect(items.at(-1)).toMatchObject({ role: 'assistant', status: 'complete' });
        // Later requests read earlier ones from the prompt cache.
        expect(app.api.requests.at(-1)?.usage?.cache_read_input_tokens).toBeGreaterThan(0);
      } finally {
        await app.close();
      }
    });
  }

  it('server: every thread tool is deferred behind the API’s tool search, whose answer is kept, sent back and traced', async () => {
    const { app, threadId } = await runThread('server');
    try {
      const [first, second] = app.api.requests;
      expect(first?.toolNames[0]).toBe('tool_search_tool_bm25');
      expect(first?.deferredToolNames).toHaveLength(41);
      // The answer with the API's search is stored as it came and goes back with the tool result.
      const sentBack = JSON.stringify(second?.body.messages.at(-2));
      expect(sentBack).toContain('"type":"server_tool_use"');
      expect(sentBack).toContain(`{"type":"tool_reference","tool_name":"${READ}"}`);
      const { items } = await app.opened.storage.messages.list(threadId);
      const searched = items.find((m) => m.blocks.some((b) => b.type === 'tool_search_tool_result'));
      expect(searched?.trace).toContainEqual(
        expect.objectContaining({ kind: 'tool-search', query: 'quarterly report section', strategy: 'server bm25' }),
      );
      expect(JSON.stringify(searched?.trace)).toContain(READ);
    } finally {
      await app.close();
    }
  });
});
