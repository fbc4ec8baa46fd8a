import { describe, expect, it } from 'vitest';
import type { Registry } from '../mcp/registry';
import { createServerNotes } from './server-notes';
import { createServersStore } from './servers-store';

describe("the app's notes about a server in the servers manager", () => {
  it('refresh it once a frame: a server making hundreds of requests that are declined does not redraw it each time', () => {
    const registry = { list: () => [], subscribe: () => () => {}, logs: () => [] } as unknown as Registry;
    const notes = createServerNotes(() => 1);
    const frames: (() => void)[] = [];
    const store = createServersStore(registry, { notes, schedule: (run) => void frames.push(run) });
    let writes = 0;
    const stop = store.subscribe(() => writes++);
    for (let i = 0; i < 300; i++) notes.add('flood', `Declined its request for input ("${i}")`);
    expect(writes).toBe(0);
    frames.splice(0).forEach((run) => run());
    expect(writes).toBe(1);
    stop();
    store.dispose();
  });
});
