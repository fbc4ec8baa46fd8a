import { describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { failObjectStore } from '../../test/fakes/idb-faults';
import { startTestMcpServer } from '../../test/fixtures/test-mcp-server';
import { createStorageRegistry, openTestProfile } from '../../test/fakes/test-app';
import { openTestStorage } from '../../test/fakes/test-storage';
import { headerSlot } from '../domain/server-config';
import {
  bindServerActions,
  createServersStore,
  EMPTY_SERVER_FORM,
  formFromConfig,
  type ServerForm,
} from './servers-store';
import { OFF_BY_APP } from './server-tools';

const KEY = { name: 'X-Api-Key', value: 'sesame' };
const cleanup = cleanupAfterEach();

async function mcpServer(options?: Parameters<typeof startTestMcpServer>[0]) {
  const server = await startTestMcpServer(options);
  cleanup(() => server.stop());
  return server;
}

/** The servers store and actions over real storage (fake-indexeddb, real vault) and the real registry. */
async function setup() {
  const opened = await openTestStorage();
  const { storage } = opened;
  const profile = await openTestProfile(storage);
  const registry = createStorageRegistry(storage, profile.id);
  const store = createServersStore(registry);
  cleanup(
    () => opened.close(),
    () => registry.close(),
    () => store.dispose(),
  );
  const actions = bindServerActions(store, { registry, storage, profileId: profile.id });
  const view = (name: string) => store.getState().servers.find((s) => s.name === name);
  const vaultValue = (owner: string, slot: string) => storage.vault.get({ profileId: profile.id, owner, slot });
  const stored = async () => (await storage.profiles.listServers(profile.id)).items;
  return { storage, db: opened.db, profile, registry, store, actions, view, vaultValue, stored };
}

const headerForm = (name: string, url: string, value = KEY.value): ServerForm => ({
  ...EMPTY_SERVER_FORM,
  name,
  url,
  auth: 'headers',
  headers: [{ name: KEY.name, value }],
});

describe('adding a server with custom headers', () => {
  it('connects with the header, keeps its value only in the vault and shows the tools', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions, view, vaultValue, stored } = await setup();
    expect(await actions.add(headerForm('Keyed', server.url))).toBeUndefined();
    expect(view('Keyed')).toMatchObject({ status: 'connected', toolCount: 3, authKind: 'headers' });
    expect(server.requests.find((r) => r.rpcMethod === 'initialize')?.headers['x-api-key']).toBe('sesame');
    expect(await vaultValue('keyed', headerSlot('X-Api-Key'))).toBe('sesame');
    expect(JSON.stringify(await stored())).not.toContain('sesame');
  });

  it('shows a wrong header value as a clear error on the server', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions, view } = await setup();
    expect(await actions.add(headerForm('Keyed', server.url, 'wrong'))).toBeUndefined();
    expect(view('Keyed')).toMatchObject({
      status: 'needs-auth',
      error:
        'The server did not accept the custom headers (X-Api-Key): check their names and values, then save or connect again.',
    });
  });

  it('refuses an invalid form field by field and stores nothing', async () => {
    const { actions, registry, stored } = await setup();
    const errors = await actions.add({
      ...headerForm('', 'http://example.com/mcp'),
      headers: [{ name: 'Cookie', value: 'x' }],
    });
    expect(errors).toEqual({
      name: 'Server name is required',
      url: expect.stringContaining('must use https:// for a remote host') as string,
      'headers.0.name': 'Header name is reserved for the MCP transport',
    });
    expect(registry.list()).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('refuses a second server with the same name next to the name field', async () => {
    const server = await mcpServer();
    const { actions } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Twice', url: server.url });
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'twice', url: server.url })).toEqual({
      name: 'A server named "twice" already exists',
    });
  });
});

describe('testing a connection without saving', () => {
  it('reports the tool count and stores nothing', async () => {
    const server = await mcpServer({ requireHeader: KEY, toolCount: 2 });
    const { actions, registry, stored, db } = await setup();
    expect(await actions.test(headerForm('Keyed', server.url))).toEqual({
      ok: true,
      text: 'Connection works: 5 tools (streamable HTTP). Nothing was saved.',
    });
    expect(registry.list()).toEqual([]);
    expect(await stored()).toEqual([]);
    expect(await db.count('credentials')).toBe(0);
    await expect.poll(() => server.openStreams).toBe(0); // The trial connection was closed.
  });

  it('says why it fails: credentials, nothing listening, not an MCP endpoint', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions } = await setup();
    expect(await actions.test(headerForm('Keyed', server.url, 'wrong'))).toEqual({
      ok: false,
      text: expect.stringContaining('did not accept the custom headers (X-Api-Key)') as string,
    });
    const closed = await mcpServer();
    const closedUrl = closed.url;
    await closed.stop();
    const down = await actions.test({ ...EMPTY_SERVER_FORM, name: 'Down', url: closedUrl });
    expect(down).toEqual({
      ok: false,
      text: expect.stringContaining("does not allow this app's origin (CORS)") as string,
    });
    const wrongPath = await actions.test({
      ...EMPTY_SERVER_FORM,
      name: 'Path',
      url: server.url.replace('/mcp', '/other'),
    });
    expect(wrongPath).toEqual({
      ok: false,
      text: 'The server answered HTTP 404: nothing at this URL speaks MCP; check the path (often /mcp).',
    });
  });

  it('an OAuth server that wants a sign-in says what to do next', async () => {
    const server = await mcpServer({ requireBearer: 'only-after-sign-in' });
    const { actions } = await setup();
    expect(await actions.test({ ...EMPTY_SERVER_FORM, name: 'Notes', url: server.url, auth: 'oauth' })).toEqual({
      ok: false,
      needsSignIn: true,
      text: 'The server answers and asks for a sign-in: save the server, then use "Sign in".',
    });
  });

  it('tests a URL before the server has a name; adding it still asks for the name', async () => {
    const server = await mcpServer({ toolCount: 2 });
    const { actions, registry, stored } = await setup();
    const unnamed = { ...EMPTY_SERVER_FORM, url: server.url };
    expect(await actions.test(unnamed)).toEqual({
      ok: true,
      text: 'Connection works: 5 tools (streamable HTTP). Nothing was saved.',
    });
    expect(await actions.add(unnamed)).toEqual({ name: 'Server name is required' });
    expect(registry.list()).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('returns field errors instead of connecting when the form is invalid', async () => {
    const { actions } = await setup();
    expect(await actions.test({ ...EMPTY_SERVER_FORM, name: 'X', url: 'nope' })).toEqual({
      ok: false,
      errors: { url: 'Server URL must be a full URL such as https://example.com/mcp' },
    });
  });

  it('while editing, uses the stored header value for a blank field', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions, registry } = await setup();
    await actions.add(headerForm('Keyed', server.url));
    const form = formFromConfig(registry.get('keyed')!.config);
    expect(await actions.test(form, 'keyed')).toMatchObject({ ok: true });
  });
});

describe('editing a server', () => {
  it('keeps a stored header value left blank when the URL stays on its origin', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions, registry, view, stored } = await setup();
    await actions.add(headerForm('Keyed', server.url));
    const sameOrigin = `${server.url}?v=2`;
    const form = { ...formFromConfig(registry.get('keyed')!.config), name: 'Keyed v2', url: sameOrigin };
    expect(form.headers).toEqual([{ name: 'X-Api-Key', value: '' }]);
    expect(await actions.update('keyed', form)).toBeUndefined();
    expect(view('Keyed v2')).toMatchObject({ status: 'connected', url: sameOrigin });
    expect((await stored())[0]).toMatchObject({ id: 'keyed', name: 'Keyed v2', url: sameOrigin });
  });

  it('asks for every secret again when the URL moves to another origin, and never sends the stored one there', async () => {
    const [first, second] = await Promise.all([
      mcpServer({ requireHeader: KEY }),
      mcpServer({ requireHeader: KEY, toolCount: 4 }),
    ]);
    const { actions, registry, view, stored } = await setup();
    await actions.add(headerForm('Keyed', first.url));
    const form = { ...formFromConfig(registry.get('keyed')!.config), name: 'Keyed v2', url: second.url };
    const reason =
      'Header value must be entered again: the URL now points at another origin, and a saved secret is only sent where it was given';
    expect(await actions.test(form, 'keyed')).toEqual({ ok: false, errors: { 'headers.0.value': reason } });
    expect(await actions.update('keyed', form)).toEqual({ 'headers.0.value': reason });
    expect(second.requests).toEqual([]);
    expect((await stored())[0]).toMatchObject({ name: 'Keyed', url: first.url });
    expect(await actions.update('keyed', { ...form, headers: [KEY] })).toBeUndefined();
    expect(view('Keyed v2')).toMatchObject({ status: 'connected', toolCount: 7, url: second.url });
    expect(second.requests.find((r) => r.rpcMethod === 'initialize')?.headers['x-api-key']).toBe('sesame');
  });

  it('reconnects with a new header value under the same config', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions, registry, view } = await setup();
    await actions.add(headerForm('Keyed', server.url, 'wrong'));
    expect(view('Keyed')?.status).toBe('needs-auth');
    expect(
      await actions.update('keyed', { ...formFromConfig(registry.get('keyed')!.config), headers: [KEY] }),
    ).toBeUndefined();
    expect(view('Keyed')).toMatchObject({ status: 'connected' });
  });

  it('asks for the value of a renamed header, and deletes secrets the new auth does not use', async () => {
    const server = await mcpServer();
    const { actions, registry, vaultValue } = await setup();
    await actions.add(headerForm('Keyed', server.url));
    const form = formFromConfig(registry.get('keyed')!.config);
    expect(await actions.update('keyed', { ...form, headers: [{ name: 'X-Other', value: '' }] })).toEqual({
      'headers.0.value': 'Header value is required',
    });
    expect(await actions.update('keyed', { ...form, auth: 'none' })).toBeUndefined();
    expect(await vaultValue('keyed', headerSlot('X-Api-Key'))).toBeUndefined();
  });

  it('shows problems next to the fields and changes nothing', async () => {
    const server = await mcpServer();
    const { actions, registry } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Plain', url: server.url });
    const form = formFromConfig(registry.get('plain')!.config);
    expect(await actions.update('plain', { ...form, name: ' ', url: 'ftp://x' })).toEqual({
      name: 'Server name is required',
      url: 'Server URL must use https:// (got ftp:)',
    });
    expect(registry.get('plain')?.config).toMatchObject({ name: 'Plain', url: server.url });
  });

  it('leaves app-level servers alone: their connection and their config stay as the deployer set them', async () => {
    const server = await mcpServer();
    const { actions, registry, storage, profile } = await setup();
    await registry.register({ id: 'company', name: 'Company', url: server.url }, 'app');
    const form = formFromConfig(registry.get('company')!.config);
    expect(await actions.update('company', { ...form, name: 'Mine' })).toEqual({
      form: 'This server is configured by the app and cannot be changed here.',
    });
    await actions.changeTool('company', 'add', { enabled: false });
    expect(registry.get('company')?.config.toolOverrides).toEqual({});
    expect(await storage.profiles.listServers(profile.id)).toEqual({ items: [], skipped: [] });
  });
});

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

describe('removing a server', () => {
  it('removes it with its secrets and stored settings', async () => {
    const server = await mcpServer({ requireHeader: KEY });
    const { actions, registry, stored, db } = await setup();
    await actions.add(headerForm('Keyed', server.url));
    await actions.remove('keyed');
    expect(registry.list()).toEqual([]);
    expect(await stored()).toEqual([]);
    expect(await db.count('credentials')).toBe(0);
  });
});

describe('the servers new threads start with', () => {
  it("puts a server in the profile's default set and takes it out again; removing the server drops it", async () => {
    const server = await mcpServer();
    const { actions, store, storage, profile, view } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    const id = view('Calc')!.id;
    await actions.setDefault(id, true);
    expect(store.getState().defaultIds).toEqual([id]);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([id]);
    const thread = await storage.threads.create(profile.id, {
      enabledServerIds: (await storage.profiles.get(profile.id))!.defaultServerIds,
    });
    expect(thread.enabledServerIds).toEqual([id]);
    await actions.setDefault(id, false);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([]);
    await actions.setDefault(id, true);
    await actions.remove(id);
    expect(store.getState().defaultIds).toEqual([]);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([]);
  });

  it('the first server added is on in new threads (and in an open thread with none on), and says so; the next is not', async () => {
    const [calc, notes] = await Promise.all([mcpServer(), mcpServer()]);
    const { registry, storage, profile } = await setup();
    const store = createServersStore(registry);
    cleanup(() => store.dispose());
    const view = (name: string) => store.getState().servers.find((s) => s.name === name);
    const open = await storage.threads.create(profile.id, { enabledServerIds: [] });
    // The open thread, as the chat holds it: its own servers, switched through storage.
    const enableInOpenThread = async (serverId: string) => {
      const thread = await storage.threads.get(open.id);
      if (!thread || thread.enabledServerIds.length > 0) return false;
      await storage.threads.update(open.id, (t) => ({ ...t, enabledServerIds: [serverId] }));
      return true;
    };
    const actions = bindServerActions(store, { registry, storage, profileId: profile.id, enableInOpenThread });
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: calc.url })).toBeUndefined();
    expect(store.getState().defaultIds).toEqual(['calc']);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual(['calc']);
    expect((await storage.threads.get(open.id))?.enabledServerIds).toEqual(['calc']);
    expect(view('Calc')?.status).toBe('connected');
    expect(store.getState().notices.calc).toEqual({
      tone: 'info',
      text: 'Added. As your first server it is on in new threads and in the open thread.',
    });
    // A second server leaves the person's choice alone: not on in new threads, not in the thread, nothing said.
    expect(await actions.add({ ...EMPTY_SERVER_FORM, name: 'Notes', url: notes.url })).toBeUndefined();
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual(['calc']);
    expect((await storage.threads.get(open.id))?.enabledServerIds).toEqual(['calc']);
    expect(store.getState().notices.notes).toBeUndefined();
  });

  it('a default switch that cannot be stored moves back and says why', async () => {
    const server = await mcpServer();
    const { actions, store, storage, profile } = await setup();
    await actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    await actions.setDefault('calc', false); // On as the first server added; off, to try switching it on.
    const restore = failObjectStore(
      'profiles',
      'put',
      new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    );
    cleanup(restore);
    const pending = actions.setDefault('calc', true);
    expect(store.getState().defaultIds).toEqual(['calc']);
    await pending;
    restore();
    expect(store.getState().defaultIds).toEqual([]);
    expect(store.getState().notices.calc?.text).toMatch(/^Browser storage is full/);
    expect((await storage.profiles.get(profile.id))?.defaultServerIds).toEqual([]);
  });

  it('shows the stored default set when the manager opens', async () => {
    const server = await mcpServer();
    const first = await setup();
    await first.actions.add({ ...EMPTY_SERVER_FORM, name: 'Calc', url: server.url });
    await first.actions.setDefault('calc', true);
    const store = createServersStore(first.registry);
    cleanup(() => store.dispose());
    bindServerActions(store, { registry: first.registry, storage: first.storage, profileId: first.profile.id });
    await vi.waitFor(() => expect(store.getState().defaultIds).toEqual(['calc']), { timeout: 15_000 });
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
