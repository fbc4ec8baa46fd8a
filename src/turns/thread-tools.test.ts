// ThreadTools is the one path from a turn to a tool: these run the real implementation over a fake registry.
import { describe, expect, it } from 'vitest';
import { FakeRegistry, toolDefinition } from '../../test/fakes/fake-registry';
import { silentLogger } from '../domain/logger';
import type { StoredApproval } from '../domain/server-trust';
import type { ApprovalRequest, ToolCaller } from '../domain/thread-tools';
import { ThreadConfig } from '../domain/thread-config';
import type { Approval } from '../domain/trace';
import { ToolSearchSettings } from '../domain/tool-search-settings';
import { createToolIndex } from '../search/tool-index';
import { createThreadTools, type ThreadToolsDeps } from './thread-tools';
import { syncToolIndex, type ToolIndexSync } from './tool-index-sync';

type Answer = (request: ApprovalRequest, switchOff: (serverId: string) => void) => Approval;

async function setup(answer: Answer = () => 'allow-once', extra: Partial<ThreadToolsDeps> = {}) {
  const registry = new FakeRegistry();
  await registry.add({ id: 'files', name: 'Files', url: 'https://files.example/mcp' }, [toolDefinition('write')]);
  await registry.add({ id: 'mail', name: 'Mail', url: 'https://mail.example/mcp' }, [toolDefinition('send')]);
  let enabled = ['files', 'mail'];
  const switchOff = (serverId: string) => (enabled = enabled.filter((id) => id !== serverId));
  const asked: ApprovalRequest[] = [];
  const saved: Record<string, StoredApproval> = {};
  const tools = createThreadTools({
    registry,
    index: createToolIndex(),
    settings: ToolSearchSettings.parse({ deferral: 'never' }),
    contextWindowTokens: 200_000,
    now: () => 1,
    thread: ThreadConfig.parse({ id: 't', profileId: 'p', title: 'T', createdAt: 0, updatedAt: 0 }),
    enabledServerIds: () => enabled,
    saveLoaded: async () => undefined,
    askApproval: async (request) => {
      asked.push(request);
      return answer(request, switchOff);
    },
    approvals: { always: {}, thread: {} },
    memory: {
      allowForThread: async (key, approval) => void (saved[key] = approval),
      allowAlways: async (key, approval) => void (saved[key] = approval),
    },
    hash: async (text) => `h${text.length}`,
    logger: silentLogger,
    ...extra,
  });
  return { registry, tools, asked, saved, switchOff };
}

const request = (modelName: string, caller?: ToolCaller) => ({
  modelName,
  input: { path: 'a.txt' },
  toolUseId: 'tu1',
  signal: new AbortController().signal,
  ...(caller ? { caller } : {}),
});

describe('ThreadTools.search: what the model is told of the tools it found', () => {
  it('says beside a found tool that its server is down or needs a sign-in, and nothing while it is connected', async () => {
    const registry = new FakeRegistry();
    const index = createToolIndex();
    await registry.add({ id: 'files', name: 'Files', url: 'https://files.example/mcp' }, [
      toolDefinition('write', { description: 'Write a file to disk' }),
    ]);
    index.upsertServer('files', registry.tools(['files']));
    const { tools } = await setup(undefined, { registry, index, settings: ToolSearchSettings.parse({}) });
    const line = async () => {
      const { content } = await tools.search({ query: 'write a file' });
      return typeof content === 'string' ? content.split('\n').find((l) => l.startsWith('- ')) : undefined;
    };
    expect(await line()).toBe('- mcp__files__write (server: Files) — Write a file to disk');
    registry.setState('files', { status: 'error' });
    expect(await line()).toBe(
      '- mcp__files__write (server: Files, which is not answering as it should now, so a call may fail) — Write a file to disk',
    );
    registry.setState('files', { status: 'needs-auth' });
    expect(await line()).toContain('(server: Files, which needs the person to sign in again before its tools work)');
  });
});

describe('ThreadTools.call: the one path from a turn to a tool', () => {
  it('refuses the call of a server switched off in the thread mid-turn, while the person was deciding', async () => {
    const { registry, tools } = await setup((_request, switchOff) => {
      switchOff('files'); // The person switches the server off in the thread, then allows the card still shown.
      return 'allow-once';
    });
    await tools.forCall({ userText: 'write a file' });
    const outcome = await tools.call(request('mcp__files__write'));
    expect(outcome.status).toBe('refused');
    expect(outcome.result.failure).toEqual({
      kind: 'server-unavailable',
      message: 'The server of write was switched off in this thread; the tool was not called.',
    });
    expect(outcome.trace).toMatchObject({ serverId: 'files', isError: true, approval: { decision: 'allow-once' } });
    expect(registry.calls).toEqual([]);
    // From now on the thread does not have the tool at all.
    expect(tools.resolve('mcp__files__write')).toBeUndefined();
    expect(tools.list().map((t) => t.modelName)).toEqual(['mcp__mail__send']);
    expect((await tools.call(request('mcp__files__write'))).result.failure?.message).toBe(
      'The server "Files" of mcp__files__write is switched off in this thread. It was not called.',
    );
  });

  it('tells the model which of the reasons keeps a tool from it: none such (or gone), its server off, the tool off', async () => {
    const { registry, tools, switchOff } = await setup();
    await registry.add({ id: 'calc', name: 'Calc', url: 'https://calc.example/mcp' }, [toolDefinition('add')]);
    const refusal = async (modelName: string) => (await tools.call(request(modelName))).result.failure?.message;
    expect(await refusal('mcp__nope__x')).toBe(
      'There is no tool named mcp__nope__x in this thread. It was not called.',
    );
    expect(await refusal('mcp__calc__add')).toBe(
      'The server "Calc" of mcp__calc__add is switched off in this thread. It was not called.',
    );
    await registry.update({
      id: 'mail',
      name: 'Mail',
      url: 'https://mail.example/mcp',
      toolOverrides: { send: { enabled: false } },
    });
    expect(await refusal('mcp__mail__send')).toBe(
      'mcp__mail__send is switched off in the settings of its server "Mail". It was not called.',
    );
    await registry.update({ id: 'mail', name: 'Mail', url: 'https://mail.example/mcp', enabled: false });
    expect(await refusal('mcp__mail__send')).toBe(
      'The server "Mail" of mcp__mail__send is switched off in its configuration. It was not called.',
    );
    await tools.forCall({ userText: 'write' });
    registry.setTools('files', [toolDefinition('read')]);
    // A name of a server of the thread that lists no such tool now: its list may have changed since the model saw it.
    expect(await refusal('mcp__files__write')).toBe(
      'There is no tool named mcp__files__write in this thread; the tool list of its server "Files" may have changed since you saw it: look for the tool again among the tools offered now, or search for it. It was not called.',
    );
    switchOff('files');
    expect(tools.whyUnavailable('mcp__files__read')).toBe(
      'The server "Files" of mcp__files__read is switched off in this thread',
    );
    expect(registry.calls).toEqual([]);
  });

  it('calls an offered tool once the person allows it, and never throws on a denial', async () => {
    const { registry, tools, asked } = await setup((r) => (r.tool.serverId === 'mail' ? 'deny' : 'allow-once'));
    await tools.forCall({ userText: '' });
    const written = await tools.call(request('mcp__files__write'));
    expect(written.status).toBe('done');
    expect(registry.calls).toEqual([{ serverId: 'files', toolName: 'write', args: { path: 'a.txt' } }]);
    const denied = await tools.call(request('mcp__mail__send'));
    expect(denied).toMatchObject({ status: 'denied', trace: { approval: { decision: 'deny', by: 'person' } } });
    expect(denied.result.failure?.message).toBe('The person declined to run send.');
    expect(registry.calls).toHaveLength(1);
    expect(asked.map((a) => a.caller)).toEqual([{ kind: 'model' }, { kind: 'model' }]);
  });

  it('refuses a model call of a tool the model was not offered, but lets code the model runs reach it', async () => {
    const { registry, tools, asked } = await setup();
    const fromModel = await tools.call(request('mcp__files__write'));
    expect(fromModel.status).toBe('refused');
    expect(fromModel.result.failure?.message).toContain('is not loaded in this thread');
    const fromCode = await tools.call(request('mcp__files__write', { kind: 'code', parentToolUseId: 'tu0' }));
    expect(fromCode.status).toBe('done');
    // The person's card says the call comes from code, under the same approval policy.
    expect(asked.map((a) => a.caller)).toEqual([{ kind: 'code', parentToolUseId: 'tu0' }]);
    expect(registry.calls).toHaveLength(1);
  });

  it('keeps a tool meant only for its app from the model and its code, and a model-only tool from apps', async () => {
    const { registry, tools } = await setup();
    await registry.add({ id: 'dice', name: 'Dice', url: 'https://dice.example/mcp' }, [
      toolDefinition('reroll', { _meta: { ui: { resourceUri: 'ui://dice/app.html', visibility: ['app'] } } }),
      toolDefinition('summary', { _meta: { ui: { resourceUri: 'ui://dice/app.html', visibility: ['model'] } } }),
    ]);
    const enabledNow = ['files', 'mail', 'dice'];
    const withDice = (await setup(undefined, { registry, enabledServerIds: () => enabledNow })).tools;
    const offered = (await withDice.forCall({ userText: 'roll' })).tools.map((t) => t.modelName);
    expect(offered).toContain('mcp__dice__summary');
    expect(offered).not.toContain('mcp__dice__reroll');
    const fromCode = await withDice.call(request('mcp__dice__reroll', { kind: 'code', parentToolUseId: 'x' }));
    expect(fromCode.status).toBe('refused');
    expect(fromCode.result.content[0]).toEqual({
      type: 'text',
      text: "The tool mcp__dice__reroll is only for its server's app; it was not called.",
    });
    expect((await withDice.call(request('mcp__dice__reroll', { kind: 'app', serverId: 'dice' }))).status).toBe('done');
    const modelOnly = await withDice.call(request('mcp__dice__summary', { kind: 'app', serverId: 'dice' }));
    expect(modelOnly.status).toBe('refused');
    expect(tools.list().some((t) => t.serverId === 'dice')).toBe(false); // Not enabled in the first thread.
  });

  it("lets an app's frame call only its own server's tools", async () => {
    const { registry, tools } = await setup();
    const other = await tools.call(request('mcp__mail__send', { kind: 'app', serverId: 'files' }));
    expect(other.status).toBe('refused');
    expect(other.result.failure?.message).toBe(
      'An app may call only the tools of its own server; mcp__mail__send was not called.',
    );
    expect((await tools.call(request('mcp__files__write', { kind: 'app', serverId: 'files' }))).status).toBe('done');
    expect(registry.calls.map((c) => c.toolName)).toEqual(['write']);
  });

  it('asks again when an always-allowed tool later declares an app, and keeps with each call the app it declared', async () => {
    const identity = { hash: async (text: string) => text };
    const first = await setup(() => 'allow-always', identity);
    await first.tools.forCall({ userText: '' });
    const plain = await first.tools.call(request('mcp__files__write'));
    expect(plain.status).toBe('done');
    expect(plain.trace.appUri).toBeUndefined();
    expect(first.saved['files/write']).toBeDefined();

    // A later turn: the server now declares an app for the same tool, everything else unchanged.
    const registry = new FakeRegistry();
    await registry.add({ id: 'files', name: 'Files', url: 'https://files.example/mcp' }, [
      toolDefinition('write', { _meta: { ui: { resourceUri: 'ui://files/app.html' } } }),
    ]);
    const later = await setup(() => 'allow-once', {
      ...identity,
      registry,
      approvals: { always: { ...first.saved }, thread: {} },
    });
    await later.tools.forCall({ userText: '' });
    const withApp = await later.tools.call(request('mcp__files__write'));
    expect(later.asked).toHaveLength(1);
    expect(withApp.trace.appUri).toBe('ui://files/app.html');
  });

  it('keeps an "always allow" stored before apps and annotations were covered, for the unchanged tool, and stores it again', async () => {
    const identity = { hash: async (text: string) => text };
    const registry = new FakeRegistry();
    const annotated = toolDefinition('write', { annotations: { readOnlyHint: true } });
    await registry.add({ id: 'files', name: 'Files', url: 'https://files.example/mcp' }, [annotated]);
    // As stored then: the hash of the definition without its annotations, no `covers`.
    const legacy = JSON.stringify([
      'files',
      'write',
      'The write tool',
      { type: 'object', properties: {} },
      'https://files.example',
      'none',
    ]);
    const stored = { hash: legacy, origin: 'https://files.example', authKind: 'none' as const };
    const { tools, asked, saved } = await setup(() => 'deny', {
      ...identity,
      registry,
      approvals: { always: { 'files/write': stored }, thread: {} },
    });
    await tools.forCall({ userText: '' });
    expect((await tools.call(request('mcp__files__write'))).status).toBe('done');
    expect(asked).toHaveLength(0);
    expect(saved['files/write']).toMatchObject({ covers: 'app-and-annotations' });
    expect(saved['files/write']!.hash).not.toBe(legacy);
  });

  it('remembers "allow for this thread" for the rest of the turn: the person is asked once', async () => {
    const { tools, asked, saved } = await setup(() => 'allow-thread');
    await tools.forCall({ userText: '' });
    await tools.call(request('mcp__files__write'));
    const again = await tools.call(request('mcp__files__write'));
    expect(again.trace.approval).toEqual({ decision: 'auto-allow', by: 'rule' });
    expect(asked).toHaveLength(1);
    expect(Object.keys(saved)).toEqual(['files/write']);
  });

  it('refuses input that is not a JSON object before anything else', async () => {
    const { registry, tools, asked } = await setup();
    await tools.forCall({ userText: '' });
    const outcome = await tools.call({ ...request('mcp__files__write'), input: 'rm -rf' });
    expect(outcome.status).toBe('refused');
    expect(outcome.result.failure?.message).toContain('is not a JSON object');
    expect(asked).toEqual([]);
    expect(registry.calls).toEqual([]);
  });

  it('goes on when the thread cannot keep its loaded tools, and reports that to the logger with what failed', async () => {
    const warnings: { message: string; context?: Readonly<Record<string, unknown>> }[] = [];
    const full = new Error('The disk is full');
    const { tools } = await setup(undefined, {
      saveLoaded: () => Promise.reject(full),
      logger: { warn: (message, context) => void warnings.push({ message, context }), debug: () => undefined },
    });
    await tools.forCall({ userText: '' });
    expect((await tools.call(request('mcp__files__write'))).status).toBe('done');
    expect(warnings).toEqual([{ message: "Saving the thread's loaded tools failed", context: { error: full } }]);
  });

  it("waits for the index to catch up before choosing a call's tools: a message sent while the catalog is indexed still finds them", async () => {
    const index = createToolIndex();
    const follow: { sync?: ToolIndexSync } = {};
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { registry, tools } = await setup(undefined, {
      index,
      settings: ToolSearchSettings.parse({ deferral: 'always' }),
      indexSettled: () => follow.sync!.settled(),
    });
    const sync = (follow.sync = syncToolIndex(registry, index, {
      now: () => 0,
      isOver: () => false,
      next: () => gate,
      hurry: () => () => undefined,
      idle: () => Promise.resolve(),
    }));
    let chosen: string[] | undefined;
    const choosing = tools
      .forCall({ userText: 'write a file' })
      .then((c) => (chosen = c.tools.map((t) => t.modelName)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(index.size).toBe(0);
    expect(chosen).toBeUndefined();

    release();
    await choosing;
    expect(chosen).toContain('mcp__files__write');
    sync.stop();
  });
});
