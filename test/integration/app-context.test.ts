// MCP Apps' model context (ui/update-model-context) is stored with the thread: it reaches the model's next turns also
// from a page opened later (a reload, another tab), and an app clearing it takes it out of the system prompt.
import { describe, expect, it } from 'vitest';
import { MAX_APP_CONTEXT_CHARS } from '../../src/domain/app-context';
import { createMcpApps } from '../../src/stores/mcp-apps';
import { faultAppsPerTest, type FaultApp } from './faults/turn-harness';

const { app } = faultAppsPerTest();

/** The page's MCP Apps over one running app, as start-up makes them (no frame is mounted here). */
const appsOf = (running: FaultApp) =>
  createMcpApps({
    turns: running.deps,
    registry: running.registry,
    chat: running.chat.store,
    chatActions: running.chat.actions,
    mount: () => {
      throw new Error('no frames in this test');
    },
    openExternal: () => undefined,
    newId: () => 'request-1',
    now: Date.now,
  }).actions;

/** The system prompt of the one turn `running` sends in `threadId` (one answer scripted). */
async function systemOfNextTurn(running: FaultApp, threadId: string): Promise<string> {
  await running.chat.actions.refreshThreads();
  await running.chat.actions.openThread(threadId);
  running.api.script({ text: 'Noted.' });
  const before = running.api.requests.length;
  await running.chat.actions.send('What does the app say?');
  const system = running.api.requests[before]?.body.system;
  return typeof system === 'string' ? system : JSON.stringify(system ?? '');
}

describe("an MCP App's context for the model", () => {
  it('is stored with the thread, so a page opened later sends it with the next turn; an empty update clears it', async () => {
    const first = await app();
    await first.chat.actions.newThread();
    const threadId = first.chat.store.getState().activeThreadId!;
    await appsOf(first).updateContext('toolu_dice', 'The player keeps the die showing 4.');
    await appsOf(first).updateContext('toolu_map', 'The map shows Lyon.');
    expect((await first.opened.storage.threads.get(threadId))?.appContexts).toEqual({
      toolu_dice: 'The player keeps the die showing 4.',
      toolu_map: 'The map shows Lyon.',
    });

    // A reload: another page on the same database, whose memory holds nothing of the first.
    const reloaded = await app({ storage: first.opened });
    const system = await systemOfNextTurn(reloaded, threadId);
    expect(system).toContain('# Context from the apps shown in this thread');
    expect(system).toContain('The player keeps the die showing 4.');
    expect(system).toContain('The map shows Lyon.');

    await appsOf(reloaded).updateContext('toolu_dice', '');
    const after = await systemOfNextTurn(reloaded, threadId);
    expect(after).not.toContain('The player keeps the die showing 4.');
    expect(after).toContain('The map shows Lyon.');
  });

  it('is cut to its limit, saying so, and the thread still opens and answers', async () => {
    const running = await app();
    await running.chat.actions.newThread();
    const threadId = running.chat.store.getState().activeThreadId!;
    await appsOf(running).updateContext('toolu_big', 'x'.repeat(MAX_APP_CONTEXT_CHARS * 3));
    const stored = (await running.opened.storage.threads.get(threadId))?.appContexts?.toolu_big ?? '';
    expect(stored.length).toBeLessThanOrEqual(MAX_APP_CONTEXT_CHARS);
    expect(stored).toMatch(/\[cut: the app sent 60,000 characters\]$/);
    expect(await systemOfNextTurn(running, threadId)).toContain('[cut: the app sent 60,000 characters]');
  });
});
