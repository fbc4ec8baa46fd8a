import { describe, expect, it } from 'vitest';
import { AUTO_DEFER_TOOL_COUNT } from '../search/tool-selection';
import { neverDeferNote } from './thread-tool-choices';

describe('the note beside "Never" in a thread', () => {
  it('says nothing while Auto would not defer either, and names the count past that', () => {
    expect(neverDeferNote(AUTO_DEFER_TOOL_COUNT)).toBeUndefined();
    expect(neverDeferNote(3012)).toBe(
      "Never sends all 3,012 tools of this thread's servers in every model call, whatever the message: each call pays " +
        `for their definitions. Auto keeps them behind tool search once there are more than ${AUTO_DEFER_TOOL_COUNT}.`,
    );
  });
});
