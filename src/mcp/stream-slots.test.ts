import { describe, expect, it } from 'vitest';
import { createLocalLocks } from '../platform/locks';
import { createStreamSlots, STREAMS_PER_PLAIN_HTTP_ADDRESS, withStreamBudget, type StreamSlots } from './stream-slots';
import type { FetchLike } from './network';

const ORIGIN = 'http://127.0.0.1:8787';
const STREAM_INIT: RequestInit = { method: 'GET', headers: { Accept: 'text/event-stream' } };

/** A server that answers every request with an open stream it can end, and counts what reached it. */
function streamingServer() {
  const ends: (() => void)[] = [];
  const requests: string[] = [];
  const fetch: FetchLike = (_input, init) => {
    requests.push(init?.method ?? 'GET');
    let close = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(': open\n\n'));
        close = () => controller.close();
      },
    });
    ends.push(() => close());
    return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
  };
  return { fetch, ends, requests };
}

async function readToEnd(response: Response): Promise<void> {
  const reader = response.body!.getReader();
  while (!(await reader.read()).done);
}

/** A fetch over `base` with its own slots (`perOrigin` of them) to ORIGIN, counting refusals in `refusals.count`. */
function budgeted(base: FetchLike, options: { perOrigin?: number; mayRefuse?: boolean; slots?: StreamSlots } = {}) {
  const refusals = { count: 0 };
  const fetch = withStreamBudget(base, {
    slots: options.slots ?? createStreamSlots(createLocalLocks(), options.perOrigin),
    origin: ORIGIN,
    mayRefuse: options.mayRefuse ?? true,
    onRefused: () => refusals.count++,
  });
  return { fetch, refusals };
}

describe('stream slots', () => {
  it('hands out 3 slots per address, counted apart for each address, and takes a released one back', async () => {
    const slots = createStreamSlots(createLocalLocks());
    const held = await Promise.all([1, 2, 3].map(() => slots.claim(ORIGIN)));
    expect(held.every((release) => release !== undefined)).toBe(true);
    expect(STREAMS_PER_PLAIN_HTTP_ADDRESS).toBe(3);
    expect(await slots.claim(ORIGIN)).toBeUndefined();
    expect(await slots.claim('http://127.0.0.1:9000')).toBeDefined();
    held[1]!();
    // A lock is free again a few ticks after its release (in the browser too).
    await expect.poll(async () => (await slots.claim(ORIGIN)) !== undefined).toBe(true);
  });

  it('answers 405 in place of a 4th optional stream, and says so; the stream ending frees its slot', async () => {
    const server = streamingServer();
    const { fetch, refusals } = budgeted(server.fetch);
    const open = await Promise.all([1, 2, 3].map(() => fetch(`${ORIGIN}/mcp`, STREAM_INIT)));
    expect(open.map((r) => r.status)).toEqual([200, 200, 200]);

    const refused = await fetch(`${ORIGIN}/mcp`, STREAM_INIT);
    expect(refused.status).toBe(405);
    expect(refusals.count).toBe(1);
    expect(server.requests).toHaveLength(3); // The refused stream never reached the server.

    // Requests that are not streams pass, however many streams are open.
    await fetch(`${ORIGIN}/mcp`, { method: 'POST', headers: { Accept: 'application/json, text/event-stream' } });
    await fetch(`${ORIGIN}/.well-known/oauth-protected-resource`, { headers: { Accept: 'application/json' } });
    expect(server.requests).toHaveLength(5);

    const ended = readToEnd(open[0]!);
    server.ends[0]!();
    await ended;
    await expect.poll(async () => (await fetch(`${ORIGIN}/mcp`, STREAM_INIT)).status).toBe(200);
  });

  it('lets a resumed stream through with every slot held: the answer to a request in flight comes on it', async () => {
    const server = streamingServer();
    const { fetch, refusals } = budgeted(server.fetch, { perOrigin: 1 });
    await fetch(`${ORIGIN}/mcp`, STREAM_INIT);
    const resumed = await fetch(`${ORIGIN}/mcp`, {
      method: 'GET',
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': 'stream-7_3' },
    });
    expect(resumed.status).toBe(200);
    expect(refusals.count).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['a 401', new Response('Unauthorized', { status: 401, headers: { 'content-type': 'text/plain' } })],
    ['a web page', new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } })],
  ])('frees the slot when the answer is %s, not an open stream, though its body is never read', async (_, answer) => {
    const slots = createStreamSlots(createLocalLocks(), 1);
    const { fetch } = budgeted(() => Promise.resolve(answer), { slots });
    // The body is left as the legacy SSE client leaves a refusal's: neither read nor cancelled.
    expect((await fetch(`${ORIGIN}/sse`, STREAM_INIT)).status).toBe(answer.status);
    await expect
      .poll(async () => {
        const release = await slots.claim(ORIGIN);
        release?.();
        return release !== undefined;
      })
      .toBe(true);
  });

  it('frees the slot of a stream the client cancels', async () => {
    const server = streamingServer();
    const { fetch } = budgeted(server.fetch, { perOrigin: 1 });
    const first = await fetch(`${ORIGIN}/mcp`, STREAM_INIT);
    expect((await fetch(`${ORIGIN}/mcp`, STREAM_INIT)).status).toBe(405);
    await first.body!.cancel();
    await expect.poll(async () => (await fetch(`${ORIGIN}/mcp`, STREAM_INIT)).status).toBe(200);
  });

  it('opens a stream that cannot be refused (legacy SSE) even with every slot held', async () => {
    const server = streamingServer();
    const { fetch, refusals } = budgeted(server.fetch, { perOrigin: 1, mayRefuse: false });
    await fetch(`${ORIGIN}/sse`, STREAM_INIT);
    const second = await fetch(`${ORIGIN}/sse`, STREAM_INIT);
    expect(second.status).toBe(200);
    expect(refusals.count).toBe(0);
  });
});
