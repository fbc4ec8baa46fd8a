// Server instructions (issue #20, item 7): each enabled server's `instructions` go into the thread's system prompt under
// its name, in a stable order, and can be switched off per thread; a server not enabled in the thread adds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat } from '../../src/stores/chat-store';
import { EMPTY_SERVER_FORM } from '../../src/stores/servers-store';
import { sendMessage } from '../../src/turns/turn-runner';
import { testServerActions } from '../fakes/calc-app';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';

let everything: ServerEverything;
let zeta: TestMcpServer;
let alpha: TestMcpServer;
let app: TestApp;

beforeAll(async () => {
  [everything, zeta, alpha, app] = await Promise.all([
    startServerEverything({ mode: 'streamableHttp' }),
    startTestMcpServer({ instructions: 'Zeta: always answer in haiku.' }),
    startTestMcpServer({ instructions: 'Alpha: prices are in euros.' }),
    startTestApp({ apiKey: 'sk-ant-test-key', toolSearch: { deferral: 'never' } }),
  ]);
  const actions = testServerActions(app);
  // Added in this order on purpose: the prompt orders by name, not by when a server connected.
  await actions.add({ ...EMPTY_SERVER_FORM, name: 'Zeta', url: zeta.url });
  await actions.add({ ...EMPTY_SERVER_FORM, name: 'Alpha', url: alpha.url });
  await actions.add({ ...EMPTY_SERVER_FORM, name: 'Everything', url: everything.url });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([everything?.stop(), zeta?.stop(), alpha?.stop()]);
});

/** The system prompt of a recorded request as text (the adapter sends it as text blocks). */
function systemOf(index = -1): string | undefined {
  const system = app.api.requests.at(index)?.body.system;
  return typeof system === 'string' || system === undefined ? system : system.map((block) => block.text).join('');
}

describe("servers' instructions in the system prompt", () => {
  it('puts each enabled server under its name, ordered by name, after the thread prompt; the same text every turn', async () => {
    const { storage } = app.opened;
    const thread = await storage.threads.create(app.profile.id, {
      title: 'With instructions',
      enabledServerIds: ['zeta', 'alpha', 'everything'],
      systemPrompt: 'Be brief.',
    });
    const turn = (text: string) =>
      sendMessage(app.deps, thread.id, text, { askApproval: async () => 'deny', signal: new AbortController().signal });
    app.api.script({ text: 'One.' }, { text: 'Two.' });
    await turn('First');
    await turn('Second');
    const text = systemOf() ?? '';
    expect(text.startsWith('Be brief.\n\n# Instructions from the MCP servers of this thread')).toBe(true);
    const alphaAt = text.indexOf('<server_instructions server="alpha" name="Alpha">\nAlpha: prices are in euros.');
    const everythingAt = text.indexOf('<server_instructions server="everything" name="Everything">\n');
    const zetaAt = text.indexOf('<server_instructions server="zeta" name="Zeta">\nZeta: always answer in haiku.');
    expect(alphaAt).toBeGreaterThan(0);
    expect(everythingAt).toBeGreaterThan(alphaAt);
    expect(zetaAt).toBeGreaterThan(everythingAt);
    // server-everything's own instructions (its docs/instructions.md) are there, not just a heading.
    expect(text.slice(everythingAt, zetaAt).length).toBeGreaterThan(200);
    // Byte for byte the same in the next turn: the prompt cache's prefix holds.
    expect(systemOf(-2)).toBe(text);
  });

  it('leaves out a server switched off for the thread, and one not enabled in it', async () => {
    const { storage } = app.opened;
    const thread = await storage.threads.create(app.profile.id, {
      title: 'Some off',
      enabledServerIds: ['zeta', 'alpha'],
    });
    const chat = createChat(app.deps);
    await chat.actions.refreshThreads();
    await chat.actions.setServerInstructions(thread.id, 'zeta', false);
    expect((await storage.threads.get(thread.id))?.instructionsOff).toEqual(['zeta']);
    app.api.script({ text: 'Three.' });
    await sendMessage(app.deps, thread.id, 'Third', {
      askApproval: async () => 'deny',
      signal: new AbortController().signal,
    });
    const text = systemOf() ?? '';
    expect(text).toContain('<server_instructions server="alpha" name="Alpha">\nAlpha: prices are in euros.');
    expect(text).not.toContain('Zeta');
    expect(text).not.toContain('name="Everything"');
    await chat.actions.setServerInstructions(thread.id, 'zeta', true);
    expect((await storage.threads.get(thread.id))?.instructionsOff).toEqual([]);
    chat.dispose();
  });
});
