import { describe, expect, it } from 'vitest';
import { ThreadConfig } from '../domain/thread-config';
import { AUTO_DEFER_TOOL_COUNT } from '../search/tool-selection';
import type { ServerView } from './servers-store';
import { neverDeferNote, waitingPins } from './thread-tool-choices';

describe('the note beside "Never" in a thread', () => {
  it('says nothing while Auto would not defer either, and names the count past that', () => {
    expect(neverDeferNote(AUTO_DEFER_TOOL_COUNT)).toBeUndefined();
    expect(neverDeferNote(3012)).toBe(
      "Never sends all 3,012 tools of this thread's servers in every model call, whatever the message: each call pays " +
        `for their definitions. Auto keeps them behind tool search once there are more than ${AUTO_DEFER_TOOL_COUNT}.`,
    );
  });

  it('names the servers set to "Always defer", whose tools stay behind tool search', () => {
    expect(neverDeferNote(3026, ['Calc', 'Maps'])).toMatch(
      /^Never sends all 3,026 tools .* The tools of Calc, Maps \(set to “Always defer”\) stay behind tool search\.$/,
    );
  });
});

describe('pinned tools kept but not sent now', () => {
  const server = (id: string, tools: [string, boolean][]) =>
    ({
      id,
      name: id.toUpperCase(),
      tools: tools.map(([name, isEnabled]) => ({ name, isEnabled })),
    }) as unknown as ServerView;
  const servers = [
    server('big', [
      ['t1', true],
      ['t2', false],
    ]),
    server('calc', [['add', true]]),
  ];
  const thread = (enabledServerIds: string[]) =>
    ThreadConfig.parse({
      id: 't',
      profileId: 'p',
      title: 'T',
      createdAt: 0,
      updatedAt: 0,
      enabledServerIds,
      pinnedTools: [
        { serverId: 'big', toolName: 't1' },
        { serverId: 'big', toolName: 't2' },
        { serverId: 'calc', toolName: 'add' },
        { serverId: 'big', toolName: 'gone' },
        { serverId: 'removed', toolName: 'x' },
      ],
    });

  it('lists those of a server off in the thread, switched off, or no longer listed; not those of a removed server', () => {
    expect(waitingPins(thread(['big', 'calc']), servers)).toEqual(['t2 (BIG)', 'gone (BIG)']);
    expect(waitingPins(thread(['big']), servers)).toEqual(['t2 (BIG)', 'add (CALC)', 'gone (BIG)']);
  });
});
