import { afterEach, describe, expect, it } from 'vitest';
import { createStreamSlots } from '../../../src/mcp/stream-slots';
import { createLocalLocks } from '../../../src/platform/locks';
import { startTestMcpServer } from '../../fixtures/test-mcp-server';
import { createTestRegistry } from '../../fakes/test-registry';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('servers sharing one plain-http address', () => {
  it('connects them all, at most 3 with their own stream; the others say so and pick up tool changes on use', async () => {
    const server = await startTestMcpServer();
    cleanup.push(() => server.stop());
    const { registry } = createTestRegistry({
      streamSlots: createStreamSlots(createLocalLocks()),
      timing: { relistWithoutStreamMs: 0 },
    });
    cleanup.push(() => registry.close());
    const ids = ['s1', 's2', 's3', 's4', 's5'];
    for (const id of ids) await registry.register({ id, name: id, url: `${server.url}?server=${id}` }, 'user');
    for (const id of ids) expect((await registry.connect(id)).status).toBe('connected');

    await expect.poll(() => server.openStreams).toBe(3);
    const withoutStream = () => ids.filter((id) => registry.get(id)?.state.liveUpdates === false);
    await expect.poll(() => withoutStream().length).toBe(2);
    const live = ids.filter((id) => !withoutStream().includes(id));

    server.addTool('fresh', 'A tool added at runtime');
    for (const id of live) await expect.poll(() => registry.tools([id]).map((t) => t.toolName)).toContain('fresh');
    // Without a stream, the change arrives when the server is next used (a turn starts by connecting such servers):
    // read again before the use goes on.
    for (const id of withoutStream()) {
      expect(registry.tools([id]).map((t) => t.toolName)).not.toContain('fresh');
      await registry.connect(id);
      expect(registry.tools([id]).map((t) => t.toolName)).toContain('fresh');
    }

    // A server that lets go of its stream frees the slot for the next connect.
    await registry.disconnect(live[0]!);
    await expect.poll(() => server.openStreams).toBe(2);
    await registry.disconnect(withoutStream()[0]!);
    const reconnected = ids.find((id) => registry.get(id)?.state.status !== 'connected')!;
    await registry.connect(reconnected);
    await expect.poll(() => server.openStreams).toBe(3);
    expect(registry.get(reconnected)?.state.liveUpdates).toBeUndefined();
  });
});
