import { describe, expect, it } from 'vitest';
import { shownResult } from './tool-display';

describe('a tool result as kept for the person', () => {
  it('keeps every content type and the structured content as they came', () => {
    const result = {
      content: [
        { type: 'text' as const, text: 'hi' },
        { type: 'audio' as const, mimeType: 'audio/wav', data: 'UklGRg==' },
        { type: 'resource_link' as const, uri: 'file:///a.txt', name: 'a.txt' },
        { type: 'resource' as const, uri: 'file:///b.bin', mimeType: 'application/pdf', blob: 'JVBERi0=' },
      ],
      structuredContent: { ok: true },
      isError: false,
      durationMs: 1,
    };
    expect(shownResult(result)).toEqual({ content: result.content, structuredContent: { ok: true } });
  });

  it('keeps media past the storage budget as a note with its type and size', () => {
    const big = 'A'.repeat(600);
    const shown = shownResult(
      {
        content: [
          { type: 'image', mimeType: 'image/png', data: big },
          { type: 'audio', mimeType: 'audio/mpeg', data: big },
        ],
        structuredContent: { rows: 'x'.repeat(600) },
        isError: false,
        durationMs: 1,
      },
      1_000,
    );
    expect(shown.content).toEqual([
      { type: 'image', mimeType: 'image/png', data: big },
      { type: 'text', text: '[audio audio/mpeg, 600 characters: too large to keep in the thread]' },
      { type: 'text', text: '[structured content, 611 characters: too large to keep in the thread]' },
    ]);
    expect(shown.structuredContent).toBeUndefined();
  });
});
