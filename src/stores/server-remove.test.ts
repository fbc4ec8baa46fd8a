import { describe, expect, it } from 'vitest';
import { removeQuestion } from './server-edit';

describe("Remove's question", () => {
  it('names the threads that lose the tools and the pinned tools among them, in the singular for one, or nothing when none use it', () => {
    const base = 'Remove "Secure" with its stored credentials and tool settings?';
    expect(removeQuestion('Secure', { threads: 0, pinnedTools: 0 })).toBe(base);
    expect(removeQuestion('Secure', { threads: 0, pinnedTools: 2 })).toBe(base); // pins of threads it is off in
    expect(removeQuestion('Secure', { threads: 2, pinnedTools: 1 })).toBe(
      `${base} 2 threads use it (1 pinned tool): they keep their messages but lose its tools.`,
    );
    expect(removeQuestion('Secure', { threads: 1, pinnedTools: 3 })).toBe(
      `${base} 1 thread uses it (3 pinned tools): it keeps its messages but loses its tools.`,
    );
    expect(removeQuestion('Secure', { threads: 1, pinnedTools: 0 })).toBe(
      `${base} 1 thread uses it: it keeps its messages but loses its tools.`,
    );
    expect(removeQuestion('Secure', { threads: 3, pinnedTools: 0 })).toBe(
      `${base} 3 threads use it: they keep their messages but lose its tools.`,
    );
  });
});
