import { describe, expect, it } from 'vitest';
import type { LoadedTool } from '../domain/thread-config';
import { capLoadedTools, touchLoadedTools } from './loaded-tools';

const at = (toolName: string, lastUsedAt: number, serverId = 's'): LoadedTool => ({ serverId, toolName, lastUsedAt });

describe('the thread’s loaded tools (least recently used dropped, load order kept for the prompt cache)', () => {
  it('appends a tool found or used now at the end', () => {
    expect(touchLoadedTools([at('a', 1)], [{ serverId: 's', toolName: 'b' }], 5, 20)).toEqual([at('a', 1), at('b', 5)]);
  });

  it('refreshes a tool already loaded where it stands instead of adding it twice', () => {
    expect(touchLoadedTools([at('a', 1), at('b', 2)], [{ serverId: 's', toolName: 'a' }], 9, 20)).toEqual([
      at('a', 9),
      at('b', 2),
    ]);
  });

  it('drops the least recently used past the cap', () => {
    const loaded = [at('a', 1), at('b', 2), at('c', 3)];
    expect(touchLoadedTools(loaded, [{ serverId: 's', toolName: 'd' }], 4, 3)).toEqual([
      at('b', 2),
      at('c', 3),
      at('d', 4),
    ]);
  });

  it('keeps the best of many results when they alone exceed the cap', () => {
    const refs = ['x', 'y', 'z'].map((toolName) => ({ serverId: 's', toolName }));
    expect(touchLoadedTools([at('a', 1)], refs, 7, 2)).toEqual([at('x', 7), at('y', 7)]);
  });

  it('tells tools with the same name on different servers apart', () => {
    const result = touchLoadedTools([at('search', 1, 'web')], [{ serverId: 'files', toolName: 'search' }], 2, 20);
    expect(result).toEqual([at('search', 1, 'web'), at('search', 2, 'files')]);
  });

  it('caps without touching', () => {
    expect(capLoadedTools([at('a', 1), at('b', 3), at('c', 2)], 2)).toEqual([at('b', 3), at('c', 2)]);
    expect(capLoadedTools([at('c', 2), at('a', 1), at('b', 3)], 2)).toEqual([at('c', 2), at('b', 3)]);
    expect(capLoadedTools([at('a', 1)], 0)).toEqual([]);
  });

  it('never reorders: touching old tools and adding new ones keeps every earlier tool where it was', () => {
    const loaded = [at('a', 1), at('b', 2), at('c', 3)];
    const next = touchLoadedTools(
      loaded,
      [
        { serverId: 's', toolName: 'a' },
        { serverId: 's', toolName: 'd' },
      ],
      9,
      20,
    );
    expect(next.map((t) => t.toolName)).toEqual(['a', 'b', 'c', 'd']);
  });
});
