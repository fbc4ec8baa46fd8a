import { describe, expect, it } from 'vitest';
import { FakeRegistry } from '../../test/fakes/fake-registry';
import { createServersStore } from './servers-store';

describe("the app's notes about a server in the servers manager", () => {
  it('refresh it once a frame: a server making hundreds of requests that are declined does not redraw it each time', async () => {
    const registry = new FakeRegistry();
    await registry.register({ id: 'flood', name: 'Flood', url: 'https://flood.example/mcp' }, 'user');
    const frames: (() => void)[] = [];
    const store = createServersStore(registry, { schedule: (run) => void frames.push(run) });
    let writes = 0;
    const stop = store.subscribe(() => writes++);
    for (let i = 0; i < 300; i++) registry.note('flood', `Declined its request for input ("${i}")`);
    expect(writes).toBe(0);
    frames.splice(0).forEach((run) => run());
    expect(writes).toBe(1);
    // One place holds them: the server's log, as the manager shows it, under the app's name; removing it forgets them.
    const logs = store.getState().servers[0]!.logs;
    expect(logs).toHaveLength(50);
    expect(logs.at(-1)).toMatchObject({ logger: 'MCP Agent', text: 'Declined its request for input ("299")' });
    await registry.unregister('flood');
    expect(registry.logs('flood')).toEqual([]);
    stop();
    store.dispose();
  });
});
