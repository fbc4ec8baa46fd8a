/**
 * A message's text as a person reads it (the Markdown marks taken out), and where a search's words are found in it:
 * the thread list's preview line and its search over every message use the same text.
 */

/** Markdown reduced to the words it shows: link texts, no heading, quote, list or emphasis marks, one line. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1') // a link: its text
    .replace(/^[ \t]*(?:#{1,6}|>+|[-*+]|\d+\.)[ \t]+/gm, '') // a heading's, quote's or list item's marker
    .replace(/`+|\*+|~~/g, '')
    .replace(/(?<![\p{L}\p{N}_])_+|_+(?![\p{L}\p{N}_])/gu, '') // emphasis, not the _ inside a name like mcp__calc__add
    .replace(/\|/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The text of a message's text blocks as shown (Markdown marks aside), read defensively: a search reads stored
 * records without parsing each one.
 */
export function shownText(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  const texts = blocks.flatMap((b: { type?: unknown; text?: unknown } | null) =>
    b?.type === 'text' && typeof b.text === 'string' ? [b.text] : [],
  );
  return plainText(texts.join('\n'));
}

/** The words found and a little of the text either side, to show where a search found them. */
export interface TextMatch {
  /** Text just before the match, starting with "…" when cut. */
  readonly before: string;
  /** The match as the text spells it (the search ignores case). */
  readonly match: string;
  /** Text just after the match, ending with "…" when cut. */
  readonly after: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `needle` first stands in a text, ignoring case, runs of white space and Markdown marks (the needle is read as
 * the text is shown: `plainText`), with up to about `beforeChars` and `afterChars` characters either side (cut at a
 * space where there is one). Built once per search; undefined when the needle holds no word.
 */
export function textMatcher(
  needle: string,
  beforeChars = 24,
  afterChars = 80,
): ((text: string) => TextMatch | undefined) | undefined {
  const words = plainText(needle).split(' ').filter(Boolean).map(escapeRegExp);
  if (words.length === 0) return undefined;
  const pattern = new RegExp(words.join('\\s+'), 'iu');
  return (text) => {
    const found = pattern.exec(text);
    if (!found) return undefined;
    const start = found.index;
    const end = start + found[0].length;
    let before = text.slice(Math.max(0, start - beforeChars), start);
    let after = text.slice(end, end + afterChars);
    if (start > before.length) before = `…${before.replace(/^\S*\s/, '')}`;
    if (end + after.length < text.length) after = `${after.replace(/\s\S*$/, '')}…`;
    return { before, match: found[0], after };
  };
}

/** Where `needle` first stands in `text` (see textMatcher); undefined when it is not there. */
export function findInText(text: string, needle: string): TextMatch | undefined {
  return textMatcher(needle)?.(text);
}

/** A message whose text holds what a search asked for. */
export interface MessageMatch {
  readonly messageId: string;
  readonly role: 'user' | 'assistant';
  readonly match: TextMatch;
}

/** A message as a search reads it: its shown text (see shownText). */
export interface ShownMessage {
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/** The last of `messages` (a thread's shown branch, first to last) whose text `find` finds something in. */
export function lastFound(
  messages: readonly ShownMessage[],
  find: (text: string) => TextMatch | undefined,
): MessageMatch | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const { id, role, text } = messages[i]!;
    const match = find(text);
    if (match) return { messageId: id, role, match };
  }
  return undefined;
}

/** The last of `messages` (a thread's shown branch, first to last) whose shown text holds `needle`. */
export function latestMatch(
  messages: readonly { readonly id: unknown; readonly role?: unknown; readonly blocks?: unknown }[],
  needle: string,
): MessageMatch | undefined {
  const find = textMatcher(needle);
  if (!find) return undefined;
  const shown = messages.map((m) => ({
    id: String(m.id),
    role: m.role === 'user' ? ('user' as const) : ('assistant' as const),
    text: shownText(m.blocks),
  }));
  return lastFound(shown, find);
}
