// Adding, testing and editing a server through the servers store's actions (servers-store.ts).
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test/fakes/cleanup';
import { headerForm, KEY, serversHarness } from '../../test/fakes/servers-harness';
import { headerSlot } from '../domain/server-config';
import { OAUTH_SLOTS } from '../mcp/oauth-provider';
import { EMPTY_SERVER_FORM, formFromConfig } from './servers-store';

const cleanup = cleanupAfterEach();
const { mcpServer, setup } = serversHarness(cleanup);

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

  it('asks again for an OAuth client secret when the URL moves to another origin, and never keeps the old one there', async () => {
    const [first, second] = await Promise.all([mcpServer(), mcpServer()]);
    const { actions, registry, vaultValue } = await setup();
    const oauth = {
      ...EMPTY_SERVER_FORM,
      name: 'Signed',
      auth: 'oauth' as const,
      clientId: 'agent',
      clientSecret: 's3cret',
    };
    expect(await actions.add({ ...oauth, url: first.url })).toBeUndefined();
    expect(await vaultValue('signed', OAUTH_SLOTS.clientSecret)).toBe('s3cret');
    const moved = { ...formFromConfig(registry.get('signed')!.config), url: second.url };
    expect(moved.clientSecret).toBe('');
    expect(await actions.update('signed', moved)).toEqual({
      clientSecret:
        'Client secret must be entered again: the URL now points at another origin, and a saved secret is only sent where it was given',
    });
    expect(await vaultValue('signed', OAUTH_SLOTS.clientSecret)).toBe('s3cret');
    // Another client ID there (a public client, or one whose secret is typed) needs no old secret: it is deleted.
    expect(await actions.update('signed', { ...moved, clientId: 'agent-at-b' })).toBeUndefined();
    expect(await vaultValue('signed', OAUTH_SLOTS.clientSecret)).toBeUndefined();
  });

  it('deletes a stored OAuth client secret when its client ID changes and no new secret is given', async () => {
    const server = await mcpServer();
    const { actions, registry, vaultValue } = await setup();
    const oauth = { ...EMPTY_SERVER_FORM, name: 'Signed', url: server.url, auth: 'oauth' as const };
    await actions.add({ ...oauth, clientId: 'agent', clientSecret: 's3cret' });
    const form = formFromConfig(registry.get('signed')!.config);
    expect(await actions.update('signed', { ...form, name: 'Renamed' })).toBeUndefined();
    expect(await vaultValue('signed', OAUTH_SLOTS.clientSecret)).toBe('s3cret');
    expect(await actions.update('signed', { ...form, clientId: 'other-client' })).toBeUndefined();
    expect(await vaultValue('signed', OAUTH_SLOTS.clientSecret)).toBeUndefined();
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
