// A tool name the thread's server does not list has that server's tools listed again: once at a time, not again for a
// while, and never holding a turn past the person's Stop (a real SDK server on 127.0.0.1 whose tools/list hangs).
import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/turns/turn-runner';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';
import { createTestRegistry } from '../../fakes/test-registry';
import { faultAppsPerTest, type FaultApp } from './turn-harness';

const { app, own, cleanup } = faultAppsPerTest();
const allow = (signal = new AbortController().signal) => ({ askApproval: async () => 'allow-once' as const, signal });

async function threadWithServer(faults: FaultApp, id: string, url: string) {
  await faults.addServer(id, url);
  await faults.registry.connect(id);
  return faults.opened.storage.threads.create(faults.profileId, { title: 'Relist', enabledServerIds: [id] });
}

describe('a tool name its server does not list', () => {
  it('Stop ends the turn at once while the re-read of the tool list hangs; the re-read finishes on its own', async () => {
    const server = await own(startTestMcpServer());
    const faults = await app();
    const thread = await threadWithServer(faults, 'calc', server.url);
    const listedBefore = server.toolsListed;
    const release = server.holdToolsList();
    cleanup(release);
    faults.api.script({ toolUses: [{ name: 'mcp__calc__fresh', input: {} }] }, { text: 'Never asked for.' });
    const stop = new AbortController();
    const sent = sendMessage(faults.deps, thread.id, 'Use the fresh tool', allow(stop.signal));
    await expect.poll(() => server.toolsListed).toBe(listedBefore + 1); // The re-read is held by the server.
    stop.abort();
    expect(await sent).toMatchObject({ status: 'stopped' });
    expect(faults.api.requests).toHaveLength(1); // The model was not called again.

    server.addTool('fresh', 'Added without list_changed', { silently: true });
    release();
    await expect.poll(() => faults.registry.resolveToolName('mcp__calc__fresh')).toBeDefined();
    expect(faults.registry.get('calc')?.state.status).toBe('connected');
  });

  it('a model repeating names the server does not have reads its tool list once, not once per call', async () => {
    const server = await own(startTestMcpServer());
    // A window no slow run can outlast: the figure counts the calls, not the clock.
    const faults = await app({ timing: { relistOnUnknownToolMs: 1e9 } });
    const thread = await threadWithServer(faults, 'calc', server.url);
    const listedBefore = server.toolsListed;
    faults.api.script(
      { toolUses: [{ name: 'mcp__calc__nope', input: {} }] },
      { toolUses: [{ name: 'mcp__calc__nada', input: {} }] },
      { toolUses: [{ name: 'mcp__calc__nope', input: {} }] },
      { text: 'I give up.' },
    );
    expect(await sendMessage(faults.deps, thread.id, 'Try tools', allow())).toEqual({ status: 'done' });
    expect(server.toolsListed - listedBefore).toBe(1);
    // Each call still tells the model its list may have changed.
    expect(JSON.stringify(faults.api.requests.at(-1)?.body.messages)).toContain(
      'There is no tool named mcp__calc__nope in this thread; the tool list of its server',
    );
  });
});

describe('relistTools', () => {
  it('shares the listing in flight, reads again only once the window has passed, and Check again reads at once', async () => {
    const server = await own(startTestMcpServer());
    let clock = 1_000_000;
    const { registry } = createTestRegistry({ now: () => clock, timing: { relistOnUnknownToolMs: 10_000 } });
    cleanup(() => registry.close());
    await registry.register({ id: 'calc', name: 'calc', url: server.url }, 'user');
    await registry.connect('calc');
    const listed = server.toolsListed;

    const release = server.holdToolsList();
    cleanup(release);
    const first = registry.relistTools('calc');
    const second = registry.relistTools('calc');
    await expect.poll(() => server.toolsListed).toBe(listed + 1);
    release();
    await Promise.all([first, second]);
    expect(server.toolsListed).toBe(listed + 1); // One listing for both.

    clock += 9_999;
    await registry.relistTools('calc');
    expect(server.toolsListed).toBe(listed + 1); // Within the window: not read again.

    clock += 1;
    await registry.relistTools('calc');
    expect(server.toolsListed).toBe(listed + 2);

    await registry.checkAgain('calc'); // The person's Check again is not held back by the window.
    expect(server.toolsListed).toBe(listed + 3);
  });

  it('resolves as its signal aborts while the listing hangs', async () => {
    const server = await own(startTestMcpServer());
    const { registry } = createTestRegistry();
    cleanup(() => registry.close());
    await registry.register({ id: 'calc', name: 'calc', url: server.url }, 'user');
    await registry.connect('calc');
    const listed = server.toolsListed;
    cleanup(server.holdToolsList());
    const stop = new AbortController();
    const relisted = registry.relistTools('calc', stop.signal);
    await expect.poll(() => server.toolsListed).toBe(listed + 1);
    stop.abort();
    await expect(relisted).resolves.toBeUndefined();
  });
});
