// A server that floods the page with notifications (trial 14: 10,000 progress or log messages during one call froze the
// page for 27 s). A real SDK-built server on 127.0.0.1 sends them from a tool; the registry, chat store, turn runner
// and servers store are the app's own, the Messages API the contract fake. Frames are the test's: it runs them when
// it chooses, so "one write per frame" is counted, not timed.
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createChat } from '../../src/stores/chat-store';
import { createFloodGuard, floodNote } from '../../src/stores/flood-guard';
import { trackServerCalls } from '../../src/stores/server-calls';
import { createServersStore, type ServersStore } from '../../src/stores/servers-store';
import { startTestApp, type TestApp } from '../fakes/test-app';
import { startTestMcpServer, type TestMcpServer, type ToolEntry } from '../fixtures/test-mcp-server';
import { until } from './sampling-rig';

/** Sends `count` progress notifications and `count` log messages, then "sent", then waits for `release`. */
let release: () => void = () => undefined;
const flood: ToolEntry = {
  tool: { name: 'flood', inputSchema: { type: 'object', properties: { count: { type: 'number' } } } },
  run: async (args, _signal, extra) => {
    const count = Number(args.count);
    const progressToken = extra._meta?.progressToken;
    for (let i = 1; i <= count; i++) {
      if (progressToken !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: i, total: count, message: `step ${i}` },
        });
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `log ${i}` } });
    }
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'sent' } });
    await new Promise<void>((resolve) => (release = resolve));
    return { content: [{ type: 'text', text: 'flooded' }] };
  },
};

let server: TestMcpServer;
let app: TestApp;
let chat: ReturnType<typeof createChat>;
let servers: ServersStore;
let clock = 0;
/** Frames asked for (requestAnimationFrame and the servers store's scheduler), run only by `runFrames`. */
const frames: (() => void)[] = [];
let onFrameAsked: (() => void) | undefined;
const askFrame = (frame: () => void) => {
  frames.push(frame);
  onFrameAsked?.();
};
const runFrames = () => frames.splice(0).forEach((frame) => frame());
/** Runs frames as they are asked for until `check` holds. */
async function framesUntil(check: () => boolean): Promise<void> {
  while (!check()) {
    if (frames.length === 0) await new Promise<void>((resolve) => (onFrameAsked = resolve));
    runFrames();
  }
}

beforeAll(async () => {
  vi.stubGlobal('requestAnimationFrame', askFrame);
  server = await startTestMcpServer({ extraTools: [flood] });
  app = await startTestApp({ apiKey: 'sk-ant-flood', toolSearch: { deferral: 'never' } });
  const guard = createFloodGuard({
    now: () => clock,
    onFlood: (id) => app.registry.note(id, floodNote(app.registry.get(id)?.config.name ?? id)),
  });
  const calls = trackServerCalls(app.registry, guard);
  chat = createChat({ ...app.deps, registry: calls.registry });
  servers = createServersStore(app.registry, { guard, schedule: askFrame });
  await app.registry.register({ id: 'flood', name: 'Flood', url: server.url }, 'user');
  await app.registry.connect('flood');
  await chat.actions.newThread();
  await chat.actions.setThreadServers(chat.store.getState().activeThreadId!, ['flood']);
});

afterAll(async () => {
  vi.unstubAllGlobals();
  servers?.dispose();
  chat?.dispose();
  await app?.close();
  await server?.stop();
});

beforeEach(() => {
  clock += 60_000; // Each test in a new counting window of the flood guard.
});

const logsOf = () => servers.getState().servers.find((s) => s.id === 'flood')!.logs;

/** Runs a turn whose model calls flood with `count`, allowed once; resolves when the server has sent everything. */
async function floodTurn(count: number) {
  app.api.script({ toolUses: [{ name: 'mcp__flood__flood', input: { count } }] }, { text: 'Done.' });
  const sent = chat.actions.send(`Flood ${count}`);
  (await until(chat.store, (s) => s.pendingApprovals[0])).answer('allow-once');
  // The server's "sent" comes after all its notifications, on the same stream, in order.
  await new Promise<void>((resolve) => {
    const stop = app.registry.subscribe(() => {
      if (app.registry.logs('flood').at(-1)?.text !== 'sent') return;
      stop();
      resolve();
    });
  });
  return { sent };
}

describe('a server flooding the page with notifications', () => {
  it('450 progress notifications of one call are one write of the latest, and 450 log messages one refresh', async () => {
    let progressWrites = 0;
    const stopCounting = chat.store.subscribe((state, previous) => {
      if (state.toolProgress !== previous.toolProgress) progressWrites++;
    });
    let serverWrites = 0;
    const stopServers = servers.subscribe(() => serverWrites++);
    const { sent } = await floodTurn(450);
    onTestFinished(async () => {
      release();
      await sent;
    });
    // Between frames: no progress written, and the servers' views at most refreshed for the call's status changes.
    expect(progressWrites).toBe(0);
    expect(serverWrites).toBeLessThanOrEqual(2);
    serverWrites = 0;

    runFrames();
    expect(progressWrites).toBe(1);
    expect(Object.values(chat.store.getState().toolProgress)).toEqual([
      { progress: 450, total: 450, message: 'step 450' },
    ]);
    expect(serverWrites).toBe(1);
    expect(logsOf().at(-1)?.text).toBe('sent');
    stopCounting();
    stopServers();
  });

  it('holds back a server past 1,000 messages in 10 s, with one note in its log, and still shows its latest', async () => {
    let serverWrites = 0;
    const stopServers = servers.subscribe(() => serverWrites++);
    const { sent } = await floodTurn(1_500);
    onTestFinished(async () => {
      release();
      await sent;
    });
    expect(serverWrites).toBeLessThanOrEqual(3); // The note, once, and status changes; 3,000 messages wrote nothing.
    // The note reaches the servers manager in the next frame, as log messages do.
    await framesUntil(() => logsOf().some((entry) => entry.logger === 'MCP Agent'));
    stopServers();
    const note = logsOf().filter((entry) => entry.logger === 'MCP Agent');
    expect(note.map((entry) => [entry.level, entry.text])).toEqual([
      ['warning', 'Flood is sending too many messages (more than 1,000 in 10 s); showing the latest once a second.'],
    ]);
    // Held back, its latest still shows, once a second (a timer, then a frame: waited for, not timed).
    await framesUntil(() => logsOf().at(-1)?.text === 'sent');
    await framesUntil(() => Object.values(chat.store.getState().toolProgress)[0]?.progress === 1_500);
  });
});
