import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const at = (text: string) => new Date(text).getTime();
const now = at('2026-11-25T18:00:00');

describe('relativeTime', () => {
  it('says how long ago, in the words a person uses', () => {
    expect(relativeTime(now - 20_000, now, 'en')).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now, 'en')).toBe('5 min. ago');
    expect(relativeTime(at('2026-11-25T09:30:00'), now, 'en')).toBe('8 hr. ago');
    expect(relativeTime(at('2026-11-24T23:00:00'), now, 'en')).toBe('yesterday');
    expect(relativeTime(at('2026-11-21T10:00:00'), now, 'en')).toBe('Saturday');
    expect(relativeTime(at('2026-10-03T10:00:00'), now, 'en')).toBe('Oct 3');
    expect(relativeTime(at('2025-10-03T10:00:00'), now, 'en')).toBe('Oct 3, 2025');
  });
});
