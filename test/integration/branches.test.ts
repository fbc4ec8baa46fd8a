/**
 * Edit, regenerate and branches (issue #22) through the chat store, the turn runner and real storage, against the
 * fake Messages API and a real MCP server: the model reads only the shown branch's history, switching branches calls
 * nothing, and the thread's token total counts every branch.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX } from '../../src/agent/compaction-context';
import { createChat, type ChatActions, type ChatStore } from '../../src/stores/chat-store';
import { threadTokenTotals, totalInput } from '../../src/stores/token-totals';
import type { FakeAnthropic, RecordedRequest } from '../fakes/fake-anthropic';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { startTestMcpServer, type TestMcpServer } from '../fixtures/test-mcp-server';

let app: TestApp;
let api: FakeAnthropic;
let mcp: TestMcpServer;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };

/** What the model read in a request: each message's role and its text (tool blocks by kind). */
const readByModel = (request: RecordedRequest | undefined) =>
  (request?.body.messages ?? []).map((m) => {
    const content = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
    return `${m.role}: ${content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(' ')}`;
  });
/** The shown branch as the person reads it. */
const shown = () =>
  chat.store
    .getState()
    .messages.map((m) => m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [`[${b.type}]`])).join(' '));
const messageWith = (text: string) =>
  chat.store.getState().messages.find((m) => m.blocks.some((b) => b.type === 'text' && b.text === text))!;
const toolCalls = () => mcp.requests.filter((r) => r.rpcMethod === 'tools/call').length;

beforeAll(async () => {
  [app, mcp] = await Promise.all([
    startTestApp({ apiKey: 'sk-ant-branches', toolSearch: { deferral: 'always', preloadCount: 0 } }),
    startTestMcpServer({ toolCount: 2 }),
  ]);
  ({ api } = app);
  await app.registry.register({ id: 'calc', name: 'Calc', url: mcp.url }, 'user');
  await app.registry.connect('calc');
  chat = createChat(app.deps);
  chat.store.subscribe((state) => state.pendingApprovals.forEach((p) => p.answer('allow-once')));
});

afterAll(async () => {
  chat?.dispose();
  await app?.close();
  await mcp?.stop();
});

beforeEach(async () => {
  await chat.actions.newThread();
  await chat.actions.setThreadServers(chat.store.getState().activeThreadId!, ['calc']);
});

describe('edit, regenerate and branches', () => {
  it('an edit starts a branch the model reads alone; switching back shows the old branch and calls nothing', async () => {
    api.script(
      { toolUses: [{ name: 'mcp__calc__add', input: { a: 2, b: 3 } }] },
      { text: 'Paris: 5 days.' },
      { text: 'Croissants.' },
      { text: 'Rome: 4 days.' },
    );
    await chat.actions.send('Plan Paris with @add');
    await chat.actions.send('What about food?');
    const parisBranch = [
      'Plan Paris with @add',
      '[tool_use]',
      '[tool_result]',
      'Paris: 5 days.',
      'What about food?',
      'Croissants.',
    ];
    expect(shown()).toEqual(parisBranch);
    const original = messageWith('Plan Paris with @add');

    await chat.actions.editMessage(original.id, 'Plan Rome instead');
    // The model read the edited message alone: nothing of the Paris branch.
    expect(readByModel(api.requests.at(-1))).toEqual(['user: Plan Rome instead']);
    expect(shown()).toEqual(['Plan Rome instead', 'Rome: 4 days.']);
    const edited = messageWith('Plan Rome instead');
    expect(chat.store.getState().versions.get(edited.id)).toEqual([original.id, edited.id]);

    const [requests, calls] = [api.requests.length, toolCalls()];
    await chat.actions.showVersion(original.id);
    expect(shown()).toEqual(parisBranch);
    expect(api.requests).toHaveLength(requests);
    expect(toolCalls()).toBe(calls); // The tool's result is shown as stored, never fetched again.
    // Export takes the branch shown.
    const exported = chat.actions.exportThread('markdown')!.text;
    expect(exported).toContain('Croissants.');
    expect(exported).not.toContain('Rome');

    // Going on from the old branch: the model reads that branch, not the edit.
    api.script({ text: 'And wine.' });
    await chat.actions.send('Drinks?');
    expect(readByModel(api.requests.at(-1))).toEqual([
      'user: Plan Paris with @add',
      'assistant: [tool_use]',
      'user: [tool_result]',
      'assistant: Paris: 5 days.',
      'user: What about food?',
      'assistant: Croissants.',
      'user: Drinks?',
    ]);
    // The thread's token total counts every model call of every branch, shown or not.
    const { messages, offBranch } = chat.store.getState();
    expect(threadTokenTotals([...offBranch, ...messages]).calls).toBe(5);
    expect(threadTokenTotals(messages).calls).toBe(4);
  });

  it('regenerate makes a new version of the answer from the same person message; reload keeps the one shown', async () => {
    api.script({ text: 'First try.' }, { text: 'Tell me more.' });
    await chat.actions.send('Name a colour');
    await chat.actions.send('Why?');
    const first = messageWith('First try.');
    const threadId = chat.store.getState().activeThreadId!;

    api.script({ text: 'Second try.' });
    await chat.actions.regenerate(first.id);
    expect(readByModel(api.requests.at(-1))).toEqual(['user: Name a colour']);
    expect(shown()).toEqual(['Name a colour', 'Second try.']);
    const second = messageWith('Second try.');
    expect(chat.store.getState().versions.get(second.id)).toEqual([first.id, second.id]);

    // Regenerate on the last answer of the branch: a third version.
    api.script({ text: 'Third try.' });
    await chat.actions.regenerate(second.id);
    expect(readByModel(api.requests.at(-1))).toEqual(['user: Name a colour']);
    expect(chat.store.getState().versions.get(messageWith('Third try.').id)).toHaveLength(3);

    await chat.actions.showVersion(first.id);
    expect(shown()).toEqual(['Name a colour', 'First try.', 'Why?', 'Tell me more.']);
    // Opened again (a reload): the branch chosen last is the one shown.
    const again = createChat(app.deps);
    try {
      await again.actions.refreshThreads();
      await again.actions.openThread(threadId);
      expect(again.store.getState().messages.map((m) => m.id)).toEqual(chat.store.getState().messages.map((m) => m.id));
    } finally {
      again.dispose();
    }
  });

  it("the thread's token total never falls while an edit or a regenerate runs", async () => {
    api.script({ text: 'One.' }, { text: 'Two.' });
    await chat.actions.send('First');
    await chat.actions.send('Second');
    const total = () => {
      const { messages, offBranch } = chat.store.getState();
      return threadTokenTotals([...offBranch, ...messages]);
    };
    const before = total();
    expect(before.calls).toBe(2);
    for (const start of [
      () => chat.actions.regenerate(messageWith('Two.').id),
      () => chat.actions.editMessage(messageWith('First').id, 'Changed'),
    ]) {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const called = new Promise<void>((resolve) => (asked = resolve));
      api.script(async () => {
        asked();
        await held;
        return { text: 'Later.' };
      });
      const running = start();
      let during: ReturnType<typeof total>;
      try {
        await called; // The shown branch is cut by now; the new answer has not come.
        expect(chat.store.getState().isRunning).toBe(true);
        during = total();
        expect(during.calls).toBeGreaterThanOrEqual(before.calls);
        expect(totalInput(during)).toBeGreaterThanOrEqual(totalInput(before));
        expect(during.output).toBeGreaterThanOrEqual(before.output);
      } finally {
        release(); // Also when a check failed: the next tests need the turn ended.
        await running;
      }
      expect(total().calls).toBe(during.calls + 1);
    }
  });

  it('while a turn runs, edit, regenerate and switching versions do nothing', async () => {
    api.script({ text: 'One.' }, { text: 'Two.' });
    await chat.actions.send('First');
    await chat.actions.regenerate(messageWith('One.').id);
    const [one] = chat.store.getState().versions.get(messageWith('Two.').id)!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    api.script(async () => {
      await held;
      return { text: 'Slow.' };
    });
    const requests = api.requests.length;
    const running = chat.actions.send('Second');
    await Promise.all([
      chat.actions.editMessage(messageWith('First').id, 'Changed'),
      chat.actions.regenerate(messageWith('Two.').id),
      chat.actions.showVersion(one!),
    ]);
    release();
    await running;
    expect(shown()).toEqual(['First', 'Two.', 'Second', 'Slow.']);
    expect(api.requests).toHaveLength(requests + 1); // Only the running turn's call.
    expect(chat.store.getState().versions.get(messageWith('First').id)).toBeUndefined();
  });

  it('an edited message keeps its attachments: the model gets them with the new text', async () => {
    const csv = 'a,b\n1,2\n';
    const ref = {
      id: 'att-branch-csv',
      name: 'data.csv',
      mimeType: 'text/csv',
      kind: 'text' as const,
      size: csv.length,
      source: { type: 'file' as const },
    };
    api.script({ text: 'Sum: 3.' }, { text: 'Mean: 1.5.' });
    await chat.actions.send('Sum the numbers', [{ ref, blob: new Blob([csv], { type: 'text/csv' }) }]);
    await chat.actions.editMessage(messageWith('Sum the numbers').id, 'Average the numbers');
    const [edit] = readByModel(api.requests.at(-1));
    expect(edit).toContain('data.csv');
    expect(edit).toContain(csv);
    expect(edit).toContain('Average the numbers');
    expect(chat.store.getState().messages[0]!.attachments?.map((a) => a.name)).toEqual(['data.csv']);
  });

  it('an attachment removed in the edit is neither sent nor kept on the new version; the old version keeps it', async () => {
    const file = (id: string, name: string, text: string) => ({
      ref: {
        id,
        name,
        mimeType: 'text/plain',
        kind: 'text' as const,
        size: text.length,
        source: { type: 'file' as const },
      },
      blob: new Blob([text], { type: 'text/plain' }),
    });
    api.script({ text: 'Both read.' }, { text: 'One read.' });
    await chat.actions.send('Compare the notes', [
      file('att-keep', 'keep.txt', 'KEEP-CONTENT'),
      file('att-drop', 'drop.txt', 'DROP-CONTENT'),
    ]);
    expect(readByModel(api.requests.at(-1))[0]).toContain('DROP-CONTENT');
    await chat.actions.editMessage(messageWith('Compare the notes').id, 'Read the note', ['att-keep']);
    const [edit] = readByModel(api.requests.at(-1));
    expect(edit).toContain('KEEP-CONTENT');
    expect(edit).not.toContain('DROP-CONTENT');
    expect(edit).not.toContain('drop.txt');
    const { messages, versions } = chat.store.getState();
    expect(messages[0]!.attachments?.map((a) => a.name)).toEqual(['keep.txt']);
    const first = versions.get(messages[0]!.id)![0]!;
    await chat.actions.showVersion(first);
    expect(chat.store.getState().messages[0]!.attachments?.map((a) => a.name)).toEqual(['keep.txt', 'drop.txt']);
  });

  it('a compaction holds on the branch it was made on, not on a branch that left before it', async () => {
    api.script({ text: 'A1' }, { text: 'A2' });
    await chat.actions.send('Q1');
    await chat.actions.send('Q2');
    const threadId = chat.store.getState().activeThreadId!;
    const q2 = messageWith('Q2');
    await app.opened.storage.compactions.add(threadId, {
      method: 'client',
      firstKeptMessageId: q2.id,
      firstKeptSeq: q2.seq,
      summary: 'The person asked Q1.',
      tokensBefore: 100,
      tokensAfter: 10,
    });
    api.script({ text: 'A3' });
    await chat.actions.send('Q3');
    // The summary stands in for Q1 and A1 (it opens the first user message, which Q2 joins).
    expect(readByModel(api.requests.at(-1))).toEqual([
      `user: ${SUMMARY_PREFIX}The person asked Q1. Q2`,
      'assistant: A2',
      'user: Q3',
    ]);

    // An edit of Q1 leaves before Q2: the summary of Q1 is not this branch's history.
    api.script({ text: 'B1' });
    await chat.actions.editMessage(messageWith('Q1').id, 'Q1 edited');
    expect(readByModel(api.requests.at(-1))).toEqual(['user: Q1 edited']);
    expect(chat.store.getState().compactions).toEqual([]);
    const [q1] = chat.store.getState().versions.get(messageWith('Q1 edited').id)!;
    await chat.actions.showVersion(q1!);
    expect(chat.store.getState().compactions.map((c) => c.summary)).toEqual(['The person asked Q1.']);
  });
});
