import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { guardReplayedRequests } from './replay-guard';

/** A transport whose incoming messages the test pushes, in a session the test names. */
function pushTransport() {
  const sent: JSONRPCMessage[] = [];
  const inner: Transport & { sessionId?: string } = {
    start: async () => {},
    close: async () => inner.onclose?.(),
    send: async (message) => void sent.push(message),
  };
  return { inner, sent, push: (message: JSONRPCMessage) => inner.onmessage?.(message) };
}

const sampling = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'sampling/createMessage',
  params: { messages: [], maxTokens: 5 },
});

describe('guardReplayedRequests', () => {
  it('passes a server request on once per session and id; a replay of it is dropped, other messages pass', () => {
    const { inner, push } = pushTransport();
    inner.sessionId = 'session-1';
    const guard = guardReplayedRequests(inner);
    const seen: JSONRPCMessage[] = [];
    guard.onmessage = (message) => seen.push(message);
    const log: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 1 } };
    push(sampling(0));
    push(log);
    push(sampling(0)); // Replayed by a resumed stream.
    push(log);
    push(sampling(1));
    expect(seen).toEqual([sampling(0), log, log, sampling(1)]);

    inner.sessionId = 'session-2'; // A new session numbers its requests from 0 again.
    push(sampling(0));
    expect(seen.at(-1)).toEqual(sampling(0));
    expect(seen).toHaveLength(5);
  });

  it('sends, closes and reports the session of the transport it wraps', async () => {
    const { inner, sent } = pushTransport();
    inner.sessionId = 'abc';
    const guard = guardReplayedRequests(inner);
    let closed = false;
    guard.onclose = () => (closed = true);
    await guard.send({ jsonrpc: '2.0', id: 3, result: {} });
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
    expect(guard.sessionId).toBe('abc');
    await guard.close();
    expect(closed).toBe(true);
  });
});
