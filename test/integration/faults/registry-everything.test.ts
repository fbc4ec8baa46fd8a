import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryEvent } from '../../../src/mcp/registry';
import { createTestRegistry } from '../../fakes/test-registry';
import { startServerEverything } from '../../fixtures/server-everything';

type Everything = Awaited<ReturnType<typeof startServerEverything>>;
let server: Everything;
let cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startServerEverything({ mode: 'streamableHttp' });
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function setup(timing?: NonNullable<Parameters<typeof createTestRegistry>[0]>['timing']) {
  const test = createTestRegistry(timing ? { timing } : {});
  cleanup.push(() => test.registry.close());
  return test;
}

describe('registry against server-everything (streamable HTTP)', () => {
  it('connects, lists its tools with model names, and keeps the catalog', async () => {
    const { registry, catalogs } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const state = await registry.connect('everything');
    expect(state).toMatchObject({ status: 'connected', transport: 'http' });
    const names = registry.tools(['everything']).map((t) => t.modelName);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__everything__get-tiny-image',
        'mcp__everything__get-structured-content',
      ]),
    );
    expect(registry.resolveToolName('mcp__everything__echo')).toEqual({ serverId: 'everything', toolName: 'echo' });
    const stored = await catalogs.get('profile-1', 'everything');
    expect(stored?.tools.length).toBe(names.length);
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('calls echo, an image tool and a structured-content tool', async () => {
    const { registry } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const echo = await registry.callTool('everything', 'echo', { message: 'hello there' });
    expect(echo).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Echo: hello there' }] });
    const image = await registry.callTool('everything', 'get-tiny-image', {});
    expect(image.content.find((c) => c.type === 'image')).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
      data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) as string,
    });
    const weather = await registry.callTool('everything', 'get-structured-content', { location: 'Chicago' });
    expect(weather.isError).toBe(false);
    expect(weather.structuredContent).toMatchObject({
      temperature: expect.any(Number) as number,
      conditions: expect.any(String) as string,
    });
  });

  it('reads a resource a link points to, and says which URI it cannot read', async () => {
    const { registry } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const links = await registry.callTool('everything', 'get-resource-links', { count: 2 });
    const link = links.content.find((c) => c.type === 'resource_link' && c.mimeType === 'text/plain');
    expect(link).toBeDefined();
    const read = await registry.readResource('everything', link!.type === 'resource_link' ? link!.uri : '');
    expect(read).toMatchObject({ ok: true, contents: [{ type: 'resource', mimeType: 'text/plain' }] });
    const missing = await registry.readResource('everything', 'demo://resource/nowhere');
    expect(missing).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Everything could not read demo:\/\/resource\/nowhere: /) as string,
    });
  });

  it('reports progress of a long-running tool and finishes past the idle timeout thanks to it', async () => {
    const { registry } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const progress: number[] = [];
    // 2 s in all, past the 1.2 s idle timeout; a step every 0.25 s leaves a busy machine room between two of them.
    const result = await registry.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 2, steps: 8 },
      { timeoutMs: 1200, onProgress: (p) => progress.push(p.progress) },
    );
    expect(result.isError).toBe(false);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('times out a call that exceeds its time without progress, and cancels on abort', async () => {
    const { registry } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const slow = await registry.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 5, steps: 1 },
      { timeoutMs: 300 },
    );
    expect(slow.failure).toMatchObject({ kind: 'timeout' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const aborted = await registry.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 5, steps: 1 },
      { signal: controller.signal },
    );
    expect(aborted.failure).toMatchObject({ kind: 'aborted', message: 'The tool call was cancelled.' });
  });

  it('runs a tool that requires task execution to its result', async () => {
    const { registry } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const result = await registry.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'MCP' },
      { timeoutMs: 30_000 },
    );
    expect(result.failure).toBeUndefined();
    expect(result.content.length).toBeGreaterThan(0);
  });

  it('refuses invalid arguments before calling, naming the field', async () => {
    const { registry } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    await registry.connect('everything');
    const result = await registry.callTool('everything', 'echo', { message: 42 });
    expect(result.failure?.kind).toBe('invalid-arguments');
    expect(result.failure?.message).toContain('message');
    expect((await registry.callTool('everything', 'no-such-tool', {})).failure?.kind).toBe('unknown-tool');
  });

  it('refuses sampling and declines elicitation unless the app provides handlers', async () => {
    const { registry } = setup();
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const sampling = await registry.callTool('everything', 'trigger-sampling-request', { prompt: 'hi' });
    expect(sampling.isError).toBe(true);
    expect(JSON.stringify(sampling.content)).toContain('This client does not allow servers to sample the model.');
    const elicitation = await registry.callTool('everything', 'trigger-elicitation-request', {});
    expect(elicitation.content.map((c) => (c.type === 'text' ? c.text : '')).join('')).toContain('"action": "decline"');
  });

  it('passes elicitation requests to the handler the app provides', async () => {
    const requests: string[] = [];
    const { registry } = createTestRegistry({
      elicitation: async (request) => {
        requests.push(request.message);
        return { action: 'accept', content: { name: 'Ada', color: 'blue', email: 'ada@example.com' } };
      },
    });
    cleanup.push(() => registry.close());
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const result = await registry.callTool('everything', 'trigger-elicitation-request', {});
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(result.content)).toContain('accept');
  });

  it('sends the person’s answer as given: a field they cleared is not filled back with the schema’s default', async () => {
    let requestedSchema: unknown;
    const { registry } = createTestRegistry({
      elicitation: async (request) => {
        requestedSchema = 'requestedSchema' in request ? request.requestedSchema : undefined;
        return { action: 'accept', content: { string: 'Bo' } };
      },
    });
    cleanup.push(() => registry.close());
    await registry.register({ id: 'everything', name: 'Everything', url: server.url }, 'user');
    const result = JSON.stringify((await registry.callTool('everything', 'trigger-elicitation-request', {})).content);
    // The schema has defaults (the form starts with them), but the person cleared them: none comes back.
    expect(JSON.stringify(requestedSchema)).toContain('It was a dark and stormy night.');
    expect(result).toContain('Bo');
    expect(result).not.toContain('dark and stormy');
  });

  it('applies per-tool overrides to everything downstream', async () => {
    const { registry } = setup();
    await registry.register(
      {
        id: 'everything',
        name: 'Everything',
        url: server.url,
        toolOverrides: { echo: { enabled: false }, 'get-sum': { description: 'Adds two numbers (override)' } },
      },
      'user',
    );
    await registry.connect('everything');
    const tools = registry.tools(['everything']);
    expect(tools.find((t) => t.toolName === 'echo')).toBeUndefined();
    expect(tools.find((t) => t.toolName === 'get-sum')?.description).toBe('Adds two numbers (override)');
    expect((await registry.callTool('everything', 'echo', { message: 'x' })).failure?.kind).toBe('tool-disabled');
  });

  it('gives an error result when the server dies mid-call, then reconnects when it is back', async () => {
    const own = await startServerEverything({ mode: 'streamableHttp' });
    cleanup.push(() => own.stop());
    const { registry } = setup({ reconnect: { initialMs: 200, maxMs: 1000, attempts: 20 } });
    const events: RegistryEvent[] = [];
    registry.subscribe((e) => events.push(e));
    await registry.register({ id: 'flaky', name: 'Flaky', url: own.url }, 'user');
    await registry.connect('flaky');
    let running!: () => void;
    const isRunning = new Promise<void>((resolve) => (running = resolve));
    const pending = registry.callTool(
      'flaky',
      'trigger-long-running-operation',
      { duration: 10, steps: 10 },
      { onProgress: () => running() },
    );
    await isRunning; // Its first progress: the call is under way on the server.
    const started = Date.now();
    await own.stop();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(result.failure?.kind).toBe('connection');
    expect(registry.get('flaky')?.state.status).toBe('error');
    expect(registry.get('flaky')?.isCatalogStale).toBe(true);
    expect(registry.tools(['flaky']).length).toBeGreaterThan(0); // The last catalog stays searchable.

    const restarted = await startServerEverything({ mode: 'streamableHttp', port: own.port });
    cleanup.push(() => restarted.stop());
    await expect.poll(() => registry.get('flaky')?.state.status, { timeout: 10_000 }).toBe('connected');
    const after = await registry.callTool('flaky', 'echo', { message: 'back' });
    expect(after.content).toEqual([{ type: 'text', text: 'Echo: back' }]);
    expect(
      events.filter((e) => e.type === 'status').map((e) => (e as { state: { status: string } }).state.status),
    ).toEqual(expect.arrayContaining(['connecting', 'connected', 'error']));
  });
});

describe('legacy HTTP+SSE servers', () => {
  it('falls back to SSE in auto mode and calls a tool', async () => {
    const sse = await startServerEverything({ mode: 'sse' });
    cleanup.push(() => sse.stop());
    const { registry } = setup();
    await registry.register({ id: 'legacy', name: 'Legacy', url: sse.url }, 'user');
    expect(await registry.connect('legacy')).toMatchObject({ status: 'connected', transport: 'sse' });
    const echo = await registry.callTool('legacy', 'echo', { message: 'old school' });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: old school' }]);
  });

  it('does not fall back when the transport is pinned to http', async () => {
    const sse = await startServerEverything({ mode: 'sse' });
    cleanup.push(() => sse.stop());
    const { registry } = setup();
    await registry.register({ id: 'pinned', name: 'Pinned', url: sse.url, transport: 'http' }, 'user');
    const state = await registry.connect('pinned');
    expect(state.status).toBe('error');
    expect(state.lastError?.message).toContain('HTTP 404');
  });
});
