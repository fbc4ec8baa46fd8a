// Resources of a thread's servers as attachments (issue #20, item 1), through the real registry and SDK client against
// an SDK-built resource server and server-everything on 127.0.0.1; what the model gets is read from the contract fake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerResources } from '../../src/mcp/server-resources';
import { createAttachmentDraft, removeAttachment, type AttachmentDraftHandle } from '../../src/stores/attachment-draft';
import { createChat, type ChatActions, type ChatStore } from '../../src/stores/chat-store';
import { allPendingItems, createDraft, followThreadDrafts } from '../../src/stores/draft';
import { createResourceActions, type ResourceActions } from '../../src/stores/resource-attachments';
import { sendWithAttachments } from '../../src/stores/send-with-attachments';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { startResourceMcpServer, type ResourceMcpServer } from '../fixtures/resource-mcp-server';
import { startServerEverything, type ServerEverything } from '../fixtures/server-everything';
import { startMcpAppServer } from '../fixtures/mcp-app-server';
import { startTestMcpServer } from '../fixtures/test-mcp-server';
import { until } from './sampling-rig';

let app: TestApp;
let server: ResourceMcpServer;
let everything: ServerEverything;
let chat: { store: ChatStore; actions: ChatActions; dispose: () => void };
let draft: AttachmentDraftHandle;
let resources: ResourceActions;

const items = () => draft.store.getState().items;

beforeAll(async () => {
  [app, server, everything] = await Promise.all([
    startTestApp({ apiKey: 'sk-ant-test-key' }),
    startResourceMcpServer(3),
    startServerEverything({ mode: 'streamableHttp' }),
  ]);
  await app.registry.register({ id: 'files', name: 'Files', url: server.url }, 'user');
  await app.registry.register({ id: 'everything', name: 'Everything', url: everything.url }, 'user');
  chat = createChat(app.deps);
  draft = createAttachmentDraft();
  resources = createResourceActions({
    resources: createServerResources(app.registry),
    registry: app.registry,
    chat: chat.store,
    draft,
  });
  const thread = await app.opened.storage.threads.create(app.deps.profileId, {
    title: 'Resources',
    enabledServerIds: ['files', 'everything'],
  });
  await chat.actions.refreshThreads();
  await chat.actions.openThread(thread.id);
});

afterAll(async () => {
  resources?.dispose();
  chat?.dispose();
  await app?.close();
  await server?.stop();
  await everything?.stop();
});

describe('server resources as attachments', () => {
  it('lists every page of resources and the templates, offered in the `@` list of the thread', async () => {
    await resources.load('files');
    const listing = resources.store.getState().listings.files!;
    expect(listing.resources.map((r) => r.uri)).toEqual([
      'notes://today',
      'images://chart.png',
      'docs://report.pdf',
      'files://archive.zip',
      'images://huge.png',
    ]);
    expect(listing.templates).toEqual([
      expect.objectContaining({ uriTemplate: 'weather://{city}/today', variables: ['city'] }),
    ]);
    expect(listing.canSubscribe).toBe(true);
    const options = resources.mentionOptions('report');
    expect(options.map((o) => [o.kind, o.label, o.detail])).toEqual([
      ['resource', 'report.pdf', 'resource · Files · docs://report.pdf'],
    ]);
  });

  it("an MCP App's page (ui://) is not offered in the `@` list; the server's other resources would be", async () => {
    const dice = await startMcpAppServer();
    try {
      await app.registry.register({ id: 'dice', name: 'Dice', url: dice.url }, 'user');
      await resources.load('dice');
      const listed = resources.store.getState().listings.dice!.resources.map((r) => r.uri);
      expect(listed).toContain('ui://dice/app.html'); // The server lists it (the Servers panel shows it)...
      await app.opened.storage.threads.update(chat.store.getState().activeThreadId!, (t) => ({
        enabledServerIds: [...t.enabledServerIds, 'dice'],
      }));
      await chat.actions.refreshThreads();
      const offered = resources.mentionOptions('').map((o) => o.resource?.uri);
      expect(offered).toContain('notes://today'); // ...and the other servers' resources are offered,
      expect(offered.filter((uri) => uri?.startsWith('ui://'))).toEqual([]); // but no app page.
    } finally {
      await app.registry.unregister('dice');
      await dice.close();
    }
  });

  it('a server without resources says so as a fact, not as a problem', async () => {
    const calc = await startTestMcpServer();
    try {
      await app.registry.register({ id: 'calc', name: 'Calc', url: calc.url }, 'user');
      await resources.load('calc');
      expect(resources.store.getState().listings.calc).toMatchObject({
        resources: [],
        templates: [],
        notOffered: true,
      });
      expect(resources.store.getState().listings.calc!.problem).toBeUndefined();
    } finally {
      await app.registry.unregister('calc');
      await calc.stop();
    }
  });

  it('a server with resources but no templates (resources/templates/list: -32601) lists its resources, no problem', async () => {
    const plain = await startResourceMcpServer(10, { templates: false });
    try {
      await app.registry.register({ id: 'plain', name: 'Plain', url: plain.url }, 'user');
      await resources.load('plain');
      const listing = resources.store.getState().listings.plain!;
      expect(listing.problem).toBeUndefined();
      expect(listing.templates).toEqual([]);
      expect(listing.resources).toHaveLength(5);
    } finally {
      await app.registry.unregister('plain');
      await plain.stop();
    }
  });

  it('lists a listed server again when it says its resources changed (resources/list_changed), for the `@` list too', async () => {
    await resources.load('files');
    expect(resources.mentionOptions('agenda')).toEqual([]);
    server.add('notes://agenda', 'Standup at 10.');
    await until(resources.store, (s) => s.listings.files?.resources.find((r) => r.uri === 'notes://agenda'));
    expect(resources.mentionOptions('agenda').map((o) => o.detail)).toEqual(['resource · Files · notes://agenda']);
  });

  it('attaches text, image, PDF and an unsupported binary with their sizes; refuses one too large, naming size and cap', async () => {
    await resources.attach('files', 'notes://today', 'today.txt');
    await resources.attach('files', 'images://chart.png', 'chart.png');
    await resources.attach('files', 'docs://report.pdf', 'report.pdf');
    await resources.attach('files', 'files://archive.zip', 'archive.zip');
    expect(items().map((i) => [i.ref.name, i.ref.kind, i.ref.size])).toEqual([
      ['today.txt', 'text', 19],
      ['chart.png', 'image', expect.any(Number)],
      ['report.pdf', 'pdf', expect.any(Number)],
      ['archive.zip', 'other', 11],
    ]);
    await resources.attach('files', 'images://huge.png', 'huge.png');
    expect(items()).toHaveLength(4);
    expect(draft.store.getState().errors).toEqual([
      "images://huge.png (Files) is 4.3 MB; an image can be at most 3.75 MB (5 MB once encoded, the API's limit).",
    ]);
  });

  it('fills a template from completion/complete suggestions and attaches what it names', async () => {
    const template = resources.templateOf('files', 'weather://{city}/today')!;
    expect(await resources.complete('files', template.uriTemplate, { name: 'city', value: 'Li' }, {})).toEqual([
      'Lisbon',
      'Lima',
    ]);
    await resources.attachTemplate('files', template.uriTemplate, { city: 'Lisbon' });
    const weather = items().at(-1)!;
    expect(weather.ref.source).toMatchObject({ type: 'resource', uri: 'weather://Lisbon/today' });
    // Named by its template and the value filled in, not by the URI's last segment ("today").
    expect(weather.ref.name).toBe('Weather of a city (city: Lisbon)');
    expect(await weather.blob.text()).toBe('Lisbon: sunny, 21 C');
    removeAttachment(draft.store, weather.ref.id);
  });

  it('follows a subscribed resource that changes before sending, and stops when it is removed', async () => {
    const notes = items().find((i) => i.ref.name === 'today.txt')!;
    await expect.poll(() => server.subscribed.has('notes://today'), { timeout: 15_000 }).toBe(true);
    server.change('notes://today', 'Buy milk. Call Ana. Water the plants.');
    await expect
      .poll(async () => items()[0]!.blob.text(), { timeout: 15_000 })
      .toBe('Buy milk. Call Ana. Water the plants.');
    expect(items()[0]!.ref.size).toBe(37);
    expect(items()).toHaveLength(4); // Replaced in place, not added.
    // The same attachment, still followed: a second change reaches it too.
    expect(items()[0]!.ref.id).toBe(notes.ref.id);
    server.change('notes://today', 'Buy milk. Call Ana.');
    await expect.poll(async () => items()[0]!.blob.text(), { timeout: 15_000 }).toBe('Buy milk. Call Ana.');
    server.change('notes://today', 'Buy milk. Call Ana. Water the plants.');
    await expect
      .poll(async () => items()[0]!.blob.text(), { timeout: 15_000 })
      .toBe('Buy milk. Call Ana. Water the plants.');
  });

  it('sends the attached resources as the API blocks, and they are no longer followed once sent', async () => {
    app.api.script({ text: 'I read them.' });
    await sendWithAttachments(chat.actions, chat.store, createDraft(), draft.store, 'Summarize these');
    expect(items()).toEqual([]);
    const content = app.api.requests.at(-1)!.body.messages[0]!.content as unknown as Record<string, unknown>[];
    expect(content.map((b) => b.type)).toEqual(['text', 'text', 'image', 'document', 'text', 'text']);
    expect(content[0]!.text).toBe(
      'Attached resource notes://today of Files (text/plain, 37 B):\n\nBuy milk. Call Ana. Water the plants.',
    );
    expect(content[3]).toMatchObject({ type: 'document', title: 'docs://report.pdf' });
    expect(content[4]!.text).toMatch(/files:\/\/archive\.zip of Files \(application\/zip, 11 B\): named only/);
    await expect.poll(() => server.subscribed.has('notes://today'), { timeout: 15_000 }).toBe(false);
    const stored = chat.store.getState().messages.find((m) => m.attachments)!;
    expect(stored.attachments!.map((a) => a.source.type === 'resource' && a.source.uri)).toEqual([
      'notes://today',
      'images://chart.png',
      'docs://report.pdf',
      'files://archive.zip',
    ]);
  });

  it("lists server-everything's resources and templates and attaches a templated one, completing its argument", async () => {
    await resources.load('everything');
    const listing = resources.store.getState().listings.everything!;
    expect(listing.problem).toBeUndefined();
    expect(listing.resources.length).toBeGreaterThan(0);
    const template = listing.templates.find((t) => t.uriTemplate === 'demo://resource/dynamic/text/{resourceId}')!;
    expect(template.variables).toEqual(['resourceId']);
    expect(
      await resources.complete('everything', template.uriTemplate, { name: 'resourceId', value: '7' }, {}),
    ).toEqual(['7']);
    await resources.attachTemplate('everything', template.uriTemplate, { resourceId: '7' });
    expect(await items().at(-1)!.blob.text()).toMatch(/^Resource 7: This is a plaintext resource created at /);
    expect(items().at(-1)!.ref.name).toBe(`${template.title ?? template.name} (resourceId: 7)`); // Not just "7".
    expect(items().at(-1)!.ref.name).toMatch(/^Dynamic Text Resource/);
  });

  it('goes to the thread it was asked in when the server answers after another thread is opened, and is followed there', async () => {
    // Own draft and actions, the drafts followed per thread as in the app; the first read waits until it is let go.
    const text = createDraft();
    const box = createAttachmentDraft();
    const real = createServerResources(app.registry);
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const own = createResourceActions({
      resources: { ...real, read: (id, uri, signal) => held.then(() => real.read(id, uri, signal)) },
      registry: app.registry,
      chat: chat.store,
      draft: box,
    });
    const stop = followThreadDrafts(text, chat.store, box.store);
    const asked = chat.store.getState().activeThreadId!;
    const other = await app.opened.storage.threads.create(app.deps.profileId, { title: 'Other', enabledServerIds: [] });
    await chat.actions.refreshThreads();
    const attaching = own.attach('files', 'notes://today');
    await chat.actions.openThread(other.id);
    letGo();
    await attaching;
    expect(box.store.getState().items).toEqual([]); // Not in the thread open now.
    // Followed while its thread is not open: a change reaches the attachment kept with that thread.
    await expect.poll(() => server.subscribed.has('notes://today'), { timeout: 15_000 }).toBe(true);
    server.change('notes://today', 'Changed while another thread was open.');
    // Read again into the draft kept with its thread, before that thread is opened again.
    await expect
      .poll(async () => allPendingItems(box.store)[0]?.blob.text(), { timeout: 15_000 })
      .toBe('Changed while another thread was open.');
    expect(box.store.getState().items).toEqual([]);
    await chat.actions.openThread(asked);
    await expect
      .poll(async () => box.store.getState().items[0]?.blob.text(), { timeout: 15_000 })
      .toBe('Changed while another thread was open.');
    expect(box.store.getState().items.map((i) => i.ref.source)).toEqual([
      { type: 'resource', serverId: 'files', serverName: 'Files', uri: 'notes://today' },
    ]);
    server.change('notes://today', 'Changed again.'); // Still followed once its thread is open again.
    await expect
      .poll(async () => box.store.getState().items[0]?.blob.text(), { timeout: 15_000 })
      .toBe('Changed again.');
    removeAttachment(box.store, box.store.getState().items[0]!.ref.id);
    await expect.poll(() => server.subscribed.has('notes://today'), { timeout: 15_000 }).toBe(false);
    stop();
    own.dispose();
  });
});
