import { describe, expect, it } from 'vitest';
import { activeMention, applyMention } from './mention-text';

describe('the mention being typed', () => {
  it('is found at the start, after a space or a bracket, but not inside an e-mail address', () => {
    expect(activeMention('@ec', 3)).toEqual({ start: 0, query: 'ec' });
    expect(activeMention('use @', 5)).toEqual({ start: 4, query: '' });
    expect(activeMention('(@wea', 5)).toEqual({ start: 1, query: 'wea' });
    expect(activeMention('mail me at a@b.com', 18)).toBeUndefined();
    expect(activeMention('@echo done', 10)).toBeUndefined();
    expect(activeMention('line\n@to', 8)).toEqual({ start: 5, query: 'to' });
  });

  it('is replaced by the pick with one space after it, keeping the rest of the message', () => {
    expect(applyMention('run @ec', { start: 4, query: 'ec' }, 7, 'echo')).toEqual({ text: 'run @echo ', caret: 10 });
    expect(applyMention('run @ec please', { start: 4, query: 'ec' }, 7, 'echo')).toEqual({
      text: 'run @echo please',
      caret: 10,
    });
    expect(applyMention('run @ecXYZ now', { start: 4, query: 'ec' }, 7, 'echo')).toEqual({
      text: 'run @echo now',
      caret: 10,
    });
    expect(applyMention('@', { start: 0, query: '' }, 1, 'Weather/search')).toEqual({
      text: '@Weather/search ',
      caret: 16,
    });
  });
});
