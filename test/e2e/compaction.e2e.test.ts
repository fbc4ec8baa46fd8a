/**
 * A long thread in the production build (issue #17): past 75% of the model's window (6,000 tokens here, as the fake's
 * GET /v1/models says) the app summarizes with a model call; the thread keeps every message on screen, a line marks
 * where the model's context now starts, the trace shows the compaction, and the header shows the thread's cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAppPage, type AppPage, saveKeyAndBaseUrl } from './app-page';
import { startAppServer, type AppServer } from './app-server';

let api: FakeAnthropic | undefined;
let server: AppServer | undefined;
let opened: AppPage | undefined;

describe('a long thread', () => {
  beforeAll(async () => {
    [api, server] = await Promise.all([
      startFakeAnthropic({ models: [{ id: 'claude-sonnet-5', max_input_tokens: 6_000 }] }),
      startAppServer(),
    ]);
    opened = await openAppPage(server.url);
    const { page } = opened;
    await saveKeyAndBaseUrl(page, 'sk-ant-compaction-e2e', api.url);
  });

  afterAll(async () => {
    await opened?.browser.close();
    await server?.close();
    await api?.stop();
  });

  it('is compacted once, marks where the model context starts, keeps every message on screen, and shows its cost', async () => {
    const { page, pageErrors } = opened!;
    const messages = page.getByRole('list', { name: 'Messages' });
    const box = page.getByRole('textbox', { name: 'Message' });
    await page.getByRole('button', { name: 'New thread', exact: true }).first().click();
    // About 2,000 tokens a question: the third passes 4,500 tokens (75% of 6,000).
    const question = (n: number) => `Question ${n}: ${'please read this part of the log. '.repeat(240)}`;
    api!.script(
      { text: 'Answer one.' },
      { text: 'Answer two.' },
      { text: 'The person sent two long log excerpts; both were read.' },
      { text: 'Answer three.' },
    );
    for (const [n, answer] of [
      [1, 'Answer one.'],
      [2, 'Answer two.'],
      [3, 'Answer three.'],
    ] as const) {
      await box.fill(question(n));
      await box.press('Enter');
      await messages.getByText(answer, { exact: true }).waitFor({ timeout: 20_000 });
    }

    const marker = messages.getByRole('note', { name: 'Context compaction' });
    await marker.waitFor({ timeout: 15_000 });
    expect(await marker.textContent()).toMatch(/The model’s context starts here: the messages above are summarized/);
    // The summary the model now reads instead of the older messages can be read too.
    const summary = marker.getByText('The person sent two long log excerpts; both were read.');
    expect(await summary.isVisible()).toBe(false);
    await marker.getByText('The summary the model sees').click();
    await summary.waitFor();
    // Every message is still on screen: three questions and three answers.
    for (const n of [1, 2, 3]) expect(await messages.getByText(`Question ${n}:`).count()).toBe(1);
    for (const answer of ['Answer one.', 'Answer two.', 'Answer three.'])
      expect(await messages.getByText(answer, { exact: true }).count()).toBe(1);
    // The request after the summary fits the window.
    expect(api!.requests.map((r) => r.usage !== undefined)).toEqual([true, true, true, true]);
    expect(api!.requests[3]?.inputTokens).toBeLessThan(4_500);

    const toggle = messages.getByRole('button', { name: /^Trace/ }).last();
    await toggle.click();
    const trace = messages.getByRole('region', { name: 'Trace of this turn' });
    expect(await trace.textContent()).toMatch(
      /Context compacted summarized by a model call · about [\d,.\s]+ → [\d,.\s]+ tokens/,
    );
    // The call that made the summary says so; the turn's own call does not.
    expect(await trace.getByText('Model call for a summary of older messages').count()).toBe(1);
    expect(await trace.getByText('Model call', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Tokens used in this thread').textContent()).toMatch(/\$0\.0\d{3}/);
    expect(pageErrors).toEqual([]);
  });
});
