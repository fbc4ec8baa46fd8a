import { describe, expect, it } from 'vitest';
import type { LoadedTool } from '../domain/thread-config';
import { capLoadedTools, touchLoadedTools } from './loaded-tools';

const at = (toolName: string, lastUsedAt: number, serverId = 's'): LoadedTool => ({ serverId, toolName, lastUsedAt });

describe('the thread’s loaded tools (least recently used dropped)', () => {
  it('adds a tool found or used now, most recent first', () => {
    expect(touchLoadedTools([at('a', 1)], [{ serverId: 's', toolName: 'b' }], 5, 20)).toEqual([at('b', 5), at('a', 1)]);
  });

  it('refreshes a tool already loaded instead of adding it twice', () => {
    expect(touchLoadedTools([at('a', 1), at('b', 2)], [{ serverId: 's', toolName: 'a' }], 9, 20)).toEqual([
      at('a', 9),
      at('b', 2),
    ]);
  });

  it('drops the least recently used past the cap', () => {
    const loaded = [at('a', 1), at('b', 2), at('c', 3)];
    expect(touchLoadedTools(loaded, [{ serverId: 's', toolName: 'd' }], 4, 3)).toEqual([
      at('d', 4),
      at('c', 3),
      at('b', 2),
    ]);
  });

  it('keeps the best of many results when they alone exceed the cap', () => {
    const refs = ['x', 'y', 'z'].map((toolName) => ({ serverId: 's', toolName }));
    expect(touchLoadedTools([at('a', 1)], refs, 7, 2)).toEqual([at('x', 7), at('y', 7)]);
  });

  it('tells tools with the same name on different servers apart', () => {
    const result = touchLoadedTools([at('search', 1, 'web')], [{ serverId: 'files', toolName: 'search' }], 2, 20);
    expect(result).toEqual([at('search', 2, 'files'), at('search', 1, 'web')]);
  });

  it('caps without touching', () => {
    expect(capLoadedTools([at('a', 1), at('b', 3), at('c', 2)], 2)).toEqual([at('b', 3), at('c', 2)]);
    expect(capLoadedTools([at('a', 1)], 0)).toEqual([]);
  });
});
