// A server's tools through the servers store's actions: the person's switches and descriptions, and tool notes.
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { failObjectStore } from '../../test/fakes/idb-faults';
import { serversHarness } from '../../test/fakes/servers-harness';
import { EMPTY_SERVER_FORM } from './servers-store';
import { OFF_BY_APP } from './server-tools';

const cleanup = cleanupAfterEach();
const { mcpServer, setup } = serversHarness(cleanup);

describe("the person's own switches for an app server's tools", () => {
  /** An app server as start-up registers it, with the profile's stored switches applied first. */
  async function withAppServer(toolOverrides: Record<string, { enabled?: boolean; description?: string }> = {}) {
    const server = await mcpServer();
    const context = await setup();
    const stored = await context.storage.profiles.get(context.profile.id);
    context.registry.setAppToolOverrides(stored!.appServerToolOverrides);
    await context.registry.register({ id: 'company', name: 'Company', url: server.url, toolOverrides }, 'app');
    await context.registry.connect('company');
    const storedOverrides = async () =>
      (await context.storage.profiles.get(context.profile.id))?.appServerToolOverrides;
    return { ...context, server, storedOverrides };
  }

  it("a switched-off tool is stored in the profile, not offered and refused like a user server's; on again, it works", async () => {
    const { actions, registry, view, storedOverrides } = await withAppServer();
    expect(await actions.changeTool('company', 'add', { enabled: false })).toBeUndefined();
    expect(await storedOverrides()).toEqual({ company: { add: { enabled: false } } });
    expect(registry.get('company')?.config.toolOverrides).toEqual({});
    expect(view('Company')?.tools.find((t) => t.name === 'add')).toEqual({
      name: 'add',
      serverDescription: 'Adds a and b',
      isEnabled: false,
    });
    expect(registry.tools(['company']).map((t) => t.toolName)).not.toContain('add');
    expect((await registry.callTool('company', 'add', { a: 1, b: 2 })).failure).toEqual({
      kind: 'tool-disabled',
      message: 'The tool "add" is disabled.',
    });
    expect(await actions.changeTool('company', 'add', { enabled: true })).toBeUndefined();
    expect(await storedOverrides()).toEqual({});
    expect(registry.tools(['company']).map((t) => t.toolName)).toContain('add');
    expect((await registry.callTool('company', 'add', { a: 1, b: 2 })).failure).toBeUndefined();
  });

  it("the deployer's switches are the base: a tool the app switched off stays off, and the person's description goes on top of the app's", async () => {
    const { actions, registry, view, storedOverrides } = await withAppServer({
      add: { enabled: false },
      slow: { description: 'Waits (as the app puts it).' },
    });
    expect(view('Company')?.tools.find((t) => t.name === 'add')).toEqual({
      name: 'add',
      serverDescription: 'Adds a and b',
      isEnabled: false,
      isOffByApp: true,
    });
    expect(await actions.changeTool('company', 'add', { enabled: true })).toBe(OFF_BY_APP);
    expect(await storedOverrides()).toEqual({});
    expect((await registry.callTool('company', 'add', { a: 1, b: 2 })).failure?.kind).toBe('tool-disabled');
    // Even an "on" that reached the profile some other way (written by hand, another version) does not win.
    registry.setAppToolOverrides({ company: { add: { enabled: true } } });
    expect(registry.tools(['company']).map((t) => t.toolName)).not.toContain('add');
    expect((await registry.callTool('company', 'add', { a: 1, b: 2 })).failure?.kind).toBe('tool-disabled');
    registry.setAppToolOverrides({});
    expect(registry.tools(['company']).find((t) => t.toolName === 'slow')?.description).toBe(
      'Waits (as the app puts it).',
    );
    expect(await actions.changeTool('company', 'slow', { description: 'Waits, in my words.' })).toBeUndefined();
    expect(registry.tools(['company']).find((t) => t.toolName === 'slow')?.description).toBe('Waits, in my words.');
    expect(view('Company')?.tools.find((t) => t.name === 'slow')).toEqual({
      name: 'slow',
      serverDescription: 'Waits (as the app puts it).',
      description: 'Waits, in my words.',
      isEnabled: true,
    });
    expect(await actions.changeTool('company', 'slow', { description: '' })).toBeUndefined();
    expect(registry.tools(['company']).find((t) => t.toolName === 'slow')?.description).toBe(
      'Waits (as the app puts it).',
    );
    expect(await storedOverrides()).toEqual({});
    // Saved as the editor opened it (the app's own words): no copy of its own, so a later change by the app shows.
    expect(
      await actions.changeTool('company', 'slow', { description: ' Waits (as the app puts it). ' }),
    ).toBeUndefined();
    expect(await storedOverrides()).toEqual({});
  });

  it('quick changes to several tools are all kept', async () => {
    const { actions, storedOverrides, registry } = await withAppServer();
    await Promise.all([
      actions.changeTool('company', 'add', { enabled: false }),
      actions.changeTool('company', 'slow', { enabled: false }),
      actions.changeTool('company', 'slow', { description: 'Mine.' }),
    ]);
    expect(await storedOverrides()).toEqual({
      company: { add: { enabled: false }, slow: { enabled: false, description: 'Mine.' } },
    });
    expect(registry.tools(['company']).map((t) => t.toolName)).toEqual(['bad-schema']);
  });

  it('a switch that cannot be stored stays as it was and says why', async () => {
    const { actions, store, registry, storedOverrides } = await withAppServer();
    const restore = failObjectStore(
      'profiles',
      'put',
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    cleanup(restore);
    const problem = await actions.changeTool('company', 'add', { enabled: false });
    restore();
    expect(problem).toMatch(/^Browser storage is full/);
    expect(store.getState().notices.company).toEqual({ tone: 'error', text: problem });
    expect(registry.tools(['company']).map((t) => t.toolName)).toContain('add');
    expect(await storedOverrides()).toEqual({});
  });
});

describe("a server's tools", () => {
  it('a disabled tool is stored, left out of the tools the model gets, and cannot be called', async () => {
    const server = await mcpServer();
    const { actions, registry, view, stored } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    await actions.changeTool('calc', 'add', { enabled: false });
    expect(view('Calc')?.tools.find((t) => t.name === 'add')).toMatchObject({ isEnabled: false });
    expect(registry.tools(['calc']).map((t) => t.toolName)).not.toContain('add');
    expect((await registry.callTool('calc', 'add', { a: 1, b: 2 })).failure?.kind).toBe('tool-disabled');
    expect((await stored())[0]?.toolOverrides).toEqual({ add: { enabled: false } });
    await actions.changeTool('calc', 'add', { enabled: true });
    expect((await registry.callTool('calc', 'add', { a: 1, b: 2 })).failure).toBeUndefined();
    expect((await stored())[0]?.toolOverrides).toEqual({});
  });

  it('a tool change that cannot be stored says why to its caller (the description editor keeps the text) and as the notice', async () => {
    const server = await mcpServer();
    const { actions, store, registry } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    const restore = failObjectStore(
      'servers',
      'put',
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    cleanup(restore);
    const problem = await actions.changeTool('calc', 'add', { description: 'My long careful description.' });
    restore();
    expect(problem).toMatch(/^Browser storage is full/);
    expect(store.getState().notices.calc).toEqual({ tone: 'error', text: problem });
    expect(registry.get('calc')?.config.toolOverrides).toEqual({});
    expect(await actions.changeTool('calc', 'add', { description: 'My long careful description.' })).toBeUndefined();
    expect(store.getState().notices.calc).toBeUndefined();
  });

  it("a description override reaches the model; an empty one restores the server's", async () => {
    const server = await mcpServer();
    const { actions, registry, view } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    await Promise.all([
      actions.changeTool('calc', 'add', { description: '  Sums two numbers exactly. ' }),
      actions.changeTool('calc', 'slow', { enabled: false }),
    ]);
    expect(registry.tools(['calc']).find((t) => t.toolName === 'add')?.description).toBe('Sums two numbers exactly.');
    expect(registry.get('calc')?.config.toolOverrides).toEqual({
      add: { description: 'Sums two numbers exactly.' },
      slow: { enabled: false },
    });
    expect(view('Calc')?.tools.find((t) => t.name === 'add')).toEqual({
      name: 'add',
      serverDescription: 'Adds a and b',
      description: 'Sums two numbers exactly.',
      isEnabled: true,
    });
    await actions.changeTool('calc', 'add', { description: '' });
    expect(registry.tools(['calc']).find((t) => t.toolName === 'add')?.description).toBe('Adds a and b');
    // The server's own description saved unchanged is no override.
    await actions.changeTool('calc', 'add', { description: 'Adds a and b' });
    expect(registry.get('calc')?.config.toolOverrides).toEqual({ slow: { enabled: false } });
  });
});

describe("a server's tool notes", () => {
  it('lists a tool whose arguments go unchecked, with why, beside its tools', async () => {
    const server = await mcpServer();
    const { actions, view } = await setup();
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Plain', url: server.url })).toBeUndefined();
    expect(view('Plain')?.toolNotes).toEqual([
      expect.stringMatching(
        /^The input schema of "bad-schema" cannot be compiled \(.+\); its arguments are sent unchecked\.$/,
      ),
    ]);
  });
});
