// The index follows the registry in background slices: these drive it with the real index over a fake registry and
// slices that end after every piece, so each give-back to the page is visible.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeRegistry, toolDefinition } from '../../test/fakes/fake-registry';
import type { BackgroundSlices } from '../platform/background-slices';
import { createToolIndex, type ToolIndex } from '../search/tool-index';
import { syncToolIndex, type ToolIndexSync } from './tool-index-sync';

const tools = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => toolDefinition(`${prefix}_${i}`, { description: `${prefix} number ${i}` }));

/** What happened, in order: `yield` for each give-back to the page, the piece size for each `addTools`. */
function recording(index: ToolIndex) {
  const log: (number | 'yield')[] = [];
  const wrapped: ToolIndex = {
    ...index,
    addTools: (serverId, added) => (log.push(added.length), index.addTools(serverId, added)),
  };
  return { log, index: wrapped };
}

/** Every look at the clock ends the slice; `onYield` runs at each give-back (before the work goes on). */
function everyPiece(onYield: (count: number) => void = () => undefined): BackgroundSlices & { yields: number } {
  const slices = {
    yields: 0,
    now: () => 0,
    isOver: () => true,
    hurry: () => () => undefined,
    idle: () => Promise.resolve(),
    next: () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          slices.yields++;
          onYield(slices.yields);
          resolve();
        }),
      ),
  };
  return slices;
}

const names = (index: ToolIndex, serverId: string) =>
  index
    .tools(new Set([serverId]))
    .map((t) => t.toolName)
    .sort();

let sync: ToolIndexSync | undefined;
afterEach(() => sync?.stop());

describe('syncToolIndex', () => {
  it('indexes a large server a few tools at a time, giving the page back between pieces, and finds them once settled', async () => {
    const registry = new FakeRegistry();
    await registry.add({ id: 'big', name: 'Big', url: 'https://big.example/mcp' }, tools('big', 200));
    const real = createToolIndex();
    const { log, index } = recording(real);
    const slices = everyPiece(() => log.push('yield'));
    sync = syncToolIndex(registry, index, slices);
    expect(real.size).toBe(0); // Nothing on the caller's stack: the page paints first.
    await sync.settled();

    expect(real.size).toBe(200);
    const pieces = log.filter((entry): entry is number => entry !== 'yield');
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(200);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(16);
    // Never two pieces without a give-back between them.
    log.forEach((entry, i) => {
      if (entry !== 'yield' && i > 0) expect(log[i - 1]).toBe('yield');
    });
    const found = real.search('big number 137', { scope: { serverIds: new Set(['big']) } });
    expect(found.ok && found.matches[0]?.ref.toolName).toBe('big_137');
  });

  it('starts a server over with its new tools when they change during its build, leaving none of the old', async () => {
    const registry = new FakeRegistry();
    await registry.add({ id: 'big', name: 'Big', url: 'https://big.example/mcp' }, tools('old', 300));
    const index = createToolIndex();
    sync = syncToolIndex(
      registry,
      index,
      everyPiece((count) => count === 5 && registry.setTools('big', tools('new', 40))),
    );
    await sync.settled();
    expect(names(index, 'big')).toEqual(
      tools('new', 40)
        .map((t) => t.name)
        .sort(),
    );
  });

  it('drops a server removed during its build', async () => {
    const registry = new FakeRegistry();
    await registry.add({ id: 'big', name: 'Big', url: 'https://big.example/mcp' }, tools('big', 300));
    await registry.add({ id: 'small', name: 'Small', url: 'https://small.example/mcp' }, tools('small', 3));
    const index = createToolIndex();
    sync = syncToolIndex(
      registry,
      index,
      everyPiece((count) => count === 5 && void registry.unregister('big')),
    );
    await sync.settled();
    expect(names(index, 'big')).toEqual([]);
    expect(names(index, 'small')).toEqual(['small_0', 'small_1', 'small_2']);
  });

  it('follows servers added, changed and switched off after it started', async () => {
    const registry = new FakeRegistry();
    const index = createToolIndex();
    sync = syncToolIndex(registry, index, everyPiece());
    await sync.settled();
    await registry.add({ id: 'mail', name: 'Mail', url: 'https://mail.example/mcp' }, tools('send', 20));
    await sync.settled();
    expect(names(index, 'mail')).toHaveLength(20);

    registry.setTools('mail', tools('send', 2));
    await sync.settled();
    expect(names(index, 'mail')).toEqual(['send_0', 'send_1']);

    await registry.update({ id: 'mail', name: 'Mail', url: 'https://mail.example/mcp', enabled: false });
    await sync.settled();
    expect(names(index, 'mail')).toEqual([]);
  });

  it('stops following once stopped, also in the middle of a build', async () => {
    const registry = new FakeRegistry();
    await registry.add({ id: 'big', name: 'Big', url: 'https://big.example/mcp' }, tools('big', 300));
    const index = createToolIndex();
    const slices = everyPiece((count) => count === 3 && sync?.stop());
    sync = syncToolIndex(registry, index, slices);
    await sync.settled();
    const yieldsAtStop = slices.yields;
    expect(index.size).toBeLessThan(300);

    await registry.add({ id: 'mail', name: 'Mail', url: 'https://mail.example/mcp' }, tools('send', 2));
    await sync.settled();
    expect(names(index, 'mail')).toEqual([]);
    expect(slices.yields).toBe(yieldsAtStop);
  });

  it('waits for a pause in typing, unless a turn waits for it: then it finishes through the typing', async () => {
    const registry = new FakeRegistry();
    await registry.add({ id: 'big', name: 'Big', url: 'https://big.example/mcp' }, tools('big', 100));
    const index = createToolIndex();
    // A person typing without a pause: a slice goes on only while the work is hurried.
    let hurried = 0;
    let hurries = 0;
    const typing: BackgroundSlices = {
      now: () => 0,
      idle: () => new Promise<void>(() => undefined),
      isOver: () => true,
      next: () =>
        new Promise<void>(function retry(resolve) {
          if (hurried > 0) setImmediate(resolve);
          else setImmediate(() => retry(resolve));
        }),
      hurry: () => {
        hurried++;
        hurries++;
        return () => void hurried--;
      },
    };
    sync = syncToolIndex(registry, index, typing);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(index.size).toBe(0); // Nothing indexed between the keys.

    await sync.settled(); // A turn needs the index.
    expect(index.size).toBe(100);
    expect(hurries).toBe(1);
    expect(hurried).toBe(0); // Released once done: the next build waits for a pause again.
  });
});
