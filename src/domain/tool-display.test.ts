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
    expect(shownResult(result, 40_000)).toEqual({ content: result.content, structuredContent: { ok: true } });
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
      100,
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

describe('text of a result as kept for the person', () => {
  it('is cut to the same cap as for the model, with the same note', () => {
    const shown = shownResult(
      {
        content: [
          { type: 'text', text: 'x'.repeat(30) },
          { type: 'resource', uri: 'file:///notes.txt', text: 'y'.repeat(30) },
          { type: 'text', text: 'z'.repeat(30) },
        ],
        isError: false,
        durationMs: 1,
      },
      50,
    );
    expect(shown.content).toEqual([
      { type: 'text', text: 'x'.repeat(30) },
      { type: 'resource', uri: 'file:///notes.txt', text: 'y'.repeat(20) },
      { type: 'text', text: '[Output truncated to 50 characters.]' },
    ]);
  });
});
