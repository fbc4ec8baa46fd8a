// How the app's MCP connection behaves when a streamable-HTTP server resumes SSE streams, against server-everything
// on 127.0.0.1 (it stores every event for resumption, and on a GET with Last-Event-ID replays every later event of the
// session, from every stream). Two faults made a sampling request come back after it was answered: the SDK's client
// took a JSON-RPC *error* answer on a POST stream for "no answer yet" and re-opened the stream with Last-Event-ID
// (patches/@modelcontextprotocol+sdk+*.patch, upstream PR typescript-sdk#2638), and the server's replay then
// re-delivered a request of another stream, which the app showed a second time.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardReplayedRequests } from '../../../src/mcp/replay-guard';
import { startServerEverything, type ServerEverything } from '../../fixtures/server-everything';

let everything: ServerEverything;
let client: Client | undefined;
const resumedGets: string[] = [];
const recordingFetch: typeof fetch = (input, init) => {
  const lastEventId = new Headers(init?.headers).get('last-event-id');
  if (init?.method === 'GET' && lastEventId) resumedGets.push(lastEventId);
  return fetch(input, init);
};

beforeAll(async () => {
  everything = await startServerEverything({ mode: 'streamableHttp' });
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  resumedGets.length = 0;
});
afterAll(async () => {
  await everything.stop();
});

/** A client that answers sampling requests at once, counting them; the transport is raw or guarded. */
async function connect(guarded: boolean): Promise<{ transport: StreamableHTTPClientTransport; asked: string[] }> {
  const asked: string[] = [];
  client = new Client({ name: 'resumption-test', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    const first = request.params.messages[0]?.content;
    asked.push(first && 'text' in first ? String(first.text) : '');
    return { model: 'test-model', role: 'assistant', content: { type: 'text', text: 'answered' } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(everything.url), {
    fetch: recordingFetch,
    reconnectionOptions: {
      initialReconnectionDelay: 0,
      maxReconnectionDelay: 0,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 2,
    },
  });
  await client.connect(guarded ? guardReplayedRequests(transport) : transport);
  return { transport, asked };
}

describe('SSE resumption against a server that replays events', () => {
  it('an error answer on a POST stream ends that request: the client does not re-open the stream to wait for one', async () => {
    await connect(false);
    await expect(
      client!.getPrompt({ name: 'resource-prompt', arguments: { resourceType: 'Video', resourceId: '1' } }),
    ).rejects.toThrow(/Invalid resourceType/);
    // A whole round trip later the closed stream has long been seen to end (its reconnection delay is 0 here).
    await client!.ping();
    await client!.listPrompts();
    expect(resumedGets).toEqual([]);
  });

  it('a sampling request the server replays after it was answered is not asked again', async () => {
    const { transport, asked } = await connect(true);
    let resumeFrom: string | undefined;
    await client!.listTools({}, { onresumptiontoken: (token) => (resumeFrom ??= token) });
    await client!.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'tea', maxTokens: 5 } });
    expect(asked).toEqual(['Resource trigger-sampling-request context: tea']);
    // A dropped stream resumed from an event before the request: the server sends the request again.
    expect(resumeFrom).toBeDefined();
    await transport.resumeStream(resumeFrom!);
    await client!.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'coffee', maxTokens: 5 } });
    expect(asked).toEqual([
      'Resource trigger-sampling-request context: tea',
      'Resource trigger-sampling-request context: coffee',
    ]);
  });
});
