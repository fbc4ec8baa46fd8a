// Client tool-search mode keeps a thread's tool list append-only: tools found later are added at the end, never
// sorted in between, and the stored loaded set gives the same order to the next turn after a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/turns/turn-runner';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { openTestStorage, type TestStorage } from '../fakes/test-storage';
import { startReportServer } from '../fixtures/report-server';

let reports: Awaited<ReturnType<typeof startReportServer>>;
let storage: TestStorage;
const toolSearch = { mode: 'client', deferral: 'always', preloadCount: 0 } as const;

beforeAll(async () => {
  [reports, storage] = await Promise.all([startReportServer({ resultChars: 400, extraTools: 40 }), openTestStorage()]);
});

afterAll(async () => {
  storage?.close();
  await reports?.close();
});

/** An app over the shared storage (a page load), with the reports server registered. */
async function openApp(): Promise<TestApp> {
  const app = await startTestApp({ apiKey: 'sk-ant-t', toolSearch, storage });
  await app.registry.register({ id: 'reports', name: 'Reports', url: reports.url }, 'user');
  return app;
}

const send = (app: TestApp, threadId: string, text: string) =>
  sendMessage(app.deps, threadId, text, {
    askApproval: () => Promise.resolve('allow-once'),
    signal: new AbortController().signal,
  });

describe('the loaded tools of a thread', () => {
  it('are appended in the order they were found, and come back in that order after a reload', async () => {
    const first = await openApp();
    const thread = await storage.storage.threads.create(first.deps.profileId, {
      title: 'Order',
      enabledServerIds: ['reports'],
    });
    first.api.script(
      { toolUses: [{ name: 'tool_search', input: { query: 'weather records' } }] },
      { toolUses: [{ name: 'tool_search', input: { query: 'invoice records' } }] },
      { text: 'Found both.' },
    );
    expect(await send(first, thread.id, 'Find the weather and invoice tools')).toEqual({ status: 'done' });
    const lists = first.api.requests.map((r) => r.toolNames);
    expect(lists).toHaveLength(3);
    // Each call's tools begin with the previous call's, in the same order: weather tools, then invoice tools.
    for (let i = 1; i < lists.length; i++) expect(lists[i]!.slice(0, lists[i - 1]!.length)).toEqual(lists[i - 1]);
    const last = lists.at(-1)!;
    const weather = last.findIndex((name) => name === 'mcp__reports__tool_03');
    const invoice = last.findIndex((name) => name === 'mcp__reports__tool_01');
    expect(weather).toBeGreaterThan(0);
    expect(invoice).toBeGreaterThan(weather);
    await first.close();

    const second = await openApp();
    second.api.script({ text: 'Still here.' });
    expect(await send(second, thread.id, 'And now?')).toEqual({ status: 'done' });
    expect(second.api.requests[0]?.toolNames).toEqual(last);
    await second.close();
  });
});
