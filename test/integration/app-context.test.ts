// MCP Apps' model context (ui/update-model-context) is stored with the thread: it reaches the model's next turns also
// from a page opened later (a reload, another tab), only while the app's server is on in the thread, and is forgotten
// with the server; an app clearing it takes it out of the next request, and it never moves the thread in the list. It
// reaches the model after the person's message, never in the system prompt (prompt-cache.test.ts: the cache holds).
import { describe, expect, it } from 'vitest';
import { MAX_APP_CONTEXT_CHARS } from '../../src/domain/app-context';
import { createMcpApps, type AppOfTool } from '../../src/stores/mcp-apps';
import { faultAppsPerTest, type FaultApp } from './faults/turn-harness';

const { app } = faultAppsPerTest();
const DICE: AppOfTool = { serverId: 'dice', serverName: 'Dice', origin: 'http://127.0.0.1', uri: 'ui://dice/app.html' };
const MAPS: AppOfTool = { serverId: 'maps', serverName: 'Maps', origin: 'http://127.0.0.1', uri: 'ui://maps/app.html' };

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

/** A thread with both apps' servers on (stored as the servers panel would; no server needs to answer). */
async function threadWithApps(running: FaultApp): Promise<string> {
  const thread = await running.opened.storage.threads.create(running.profileId, {
    title: 'Apps',
    enabledServerIds: [DICE.serverId, MAPS.serverId],
  });
  return thread.id;
}

/**
 * What the model reads after the person's message in the one turn `running` sends in `threadId` (one answer scripted):
 * the apps' context goes there, not into the system prompt, and the person's message is sent as they wrote it.
 */
async function appContextOfNextTurn(running: FaultApp, threadId: string): Promise<string> {
  await running.chat.actions.refreshThreads();
  await running.chat.actions.openThread(threadId);
  running.api.script({ text: 'Noted.' });
  const before = running.api.requests.length;
  await running.chat.actions.send('What does the app say?');
  const body = running.api.requests[before]!.body;
  expect(JSON.stringify(body.system ?? '')).not.toContain('Context from the apps');
  const newest = body.messages.at(-1)!;
  const texts = (typeof newest.content === 'string' ? [] : newest.content).flatMap((b) =>
    b.type === 'text' ? [b.text] : [],
  );
  expect(newest.role).toBe('user');
  expect(texts[0]).toBe('What does the app say?');
  return texts.slice(1).join('\n\n');
}

describe("an MCP App's context for the model", () => {
  it('is stored with the thread, so a page opened later sends it with the next turn; an empty update clears it', async () => {
    const first = await app();
    const threadId = await threadWithApps(first);
    await appsOf(first).updateContext(threadId, DICE, 'toolu_dice', 'The player keeps the die showing 4.');
    await appsOf(first).updateContext(threadId, MAPS, 'toolu_map', 'The map shows Lyon.');
    expect((await first.opened.storage.threads.get(threadId))?.appContexts).toEqual({
      toolu_dice: { serverId: 'dice', text: 'The player keeps the die showing 4.' },
      toolu_map: { serverId: 'maps', text: 'The map shows Lyon.' },
    });

    // A reload: another page on the same database, whose memory holds nothing of the first.
    const reloaded = await app({ storage: first.opened });
    const said = await appContextOfNextTurn(reloaded, threadId);
    expect(said).toContain('# Context from the apps shown in this thread');
    expect(said).toContain("their own words, not the person's");
    expect(said).toContain('The player keeps the die showing 4.');
    expect(said).toContain('The map shows Lyon.');

    await appsOf(reloaded).updateContext(threadId, DICE, 'toolu_dice', '');
    const after = await appContextOfNextTurn(reloaded, threadId);
    expect(after).not.toContain('The player keeps the die showing 4.');
    expect(after).toContain('The map shows Lyon.');
  });

  it('is heard only while its server is on in the thread, and is forgotten when the server is removed', async () => {
    const running = await app();
    const threadId = await threadWithApps(running);
    await appsOf(running).updateContext(threadId, DICE, 'toolu_dice', 'The player keeps the die showing 4.');
    await appsOf(running).updateContext(threadId, MAPS, 'toolu_map', 'The map shows Lyon.');

    await running.opened.storage.threads.setEnabledServers(threadId, [MAPS.serverId]);
    const off = await appContextOfNextTurn(running, threadId);
    expect(off).not.toContain('The player keeps the die showing 4.');
    expect(off).toContain('The map shows Lyon.');

    await running.opened.storage.profiles.saveServer(running.profileId, {
      id: 'maps',
      name: 'Maps',
      url: 'https://maps.example/mcp',
    });
    await running.opened.storage.profiles.removeServer(running.profileId, 'maps');
    expect((await running.opened.storage.threads.get(threadId))?.appContexts).toEqual({
      toolu_dice: { serverId: 'dice', text: 'The player keeps the die showing 4.' },
    });
  });

  it('does not move its thread up the list: what an app says is no activity of the person', async () => {
    const running = await app();
    const older = await threadWithApps(running);
    const newer = await running.opened.storage.threads.create(running.profileId, { title: 'Newer' });
    const before = (await running.opened.storage.threads.get(older))!.updatedAt;
    await appsOf(running).updateContext(older, DICE, 'toolu_dice', 'The die shows 6.');
    expect((await running.opened.storage.threads.get(older))!.updatedAt).toBe(before);
    const { items } = await running.opened.storage.threads.list(running.profileId);
    expect(items.map((t) => t.id)).toEqual([newer.id, older]);
  });

  it('is cut to its limit, saying so, and the thread still opens and answers', async () => {
    const running = await app();
    const threadId = await threadWithApps(running);
    await appsOf(running).updateContext(threadId, DICE, 'toolu_big', 'x'.repeat(MAX_APP_CONTEXT_CHARS * 3));
    const stored = (await running.opened.storage.threads.get(threadId))?.appContexts?.toolu_big?.text ?? '';
    expect(stored.length).toBeLessThanOrEqual(MAX_APP_CONTEXT_CHARS);
    expect(stored).toMatch(/\[cut: the app sent 60,000 characters\]$/);
    expect(await appContextOfNextTurn(running, threadId)).toContain('[cut: the app sent 60,000 characters]');
  });
});
