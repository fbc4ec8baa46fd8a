// What a file name made from free text (a thread's title, a URL's last segment) keeps: letters, with their marks, and
// digits of any script, never a character a file system or a browser's download treats specially.
const LETTERS_AND_DIGITS = String.raw`\p{L}\p{M}\p{N}`;

/** Runs of characters a file name made from a title drops: all but letters and digits, space, `_` and `-`. */
const TITLE_UNSAFE = new RegExp(`[^${LETTERS_AND_DIGITS} _-]+`, 'gu');

/** Runs of characters a file name made from a URL's segment replaces: all but letters and digits, `_`, `.` and `-`. */
const SEGMENT_UNSAFE = new RegExp(`[^${LETTERS_AND_DIGITS}_.-]+`, 'gu');

/** A URL's segment with each run of unsafe characters made one `_`. */
export function safeSegment(segment: string): string {
  return segment.replace(SEGMENT_UNSAFE, '_');
}

/** The first `max` characters of `text`, by code point: a character outside the BMP is never cut in two. */
export function firstChars(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

/** A file name's base from a title: safe characters only, at most `max` of them, cut before trimmed; else `fallback`. */
export function fileBaseFromTitle(title: string, max: number, fallback: string): string {
  return firstChars(title.replace(TITLE_UNSAFE, ''), max).trim() || fallback;
}
