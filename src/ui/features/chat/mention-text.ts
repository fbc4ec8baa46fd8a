/** The `@` mention being typed at the caret: where its `@` is and what follows it so far. */
export interface ActiveMention {
  readonly start: number;
  readonly query: string;
}

// As mentions are read from a message: "@" at the start or after white space or an opening bracket or quote.
const TYPING_MENTION = /(?:^|[\s([{"'])@([^\s@]*)$/u;

/** The mention the caret is in, if any. */
export function activeMention(text: string, caret: number): ActiveMention | undefined {
  const match = TYPING_MENTION.exec(text.slice(0, caret));
  if (!match) return undefined;
  const query = match[1] ?? '';
  return { start: caret - query.length - 1, query };
}

/** The text with the mention at the caret replaced by `@insert ` (the rest of its word too), and the caret after it. */
export function applyMention(
  text: string,
  mention: ActiveMention,
  caret: number,
  insert: string,
): { text: string; caret: number } {
  const rest = text.slice(caret);
  const tail = rest.replace(/^[^\s]*/u, '');
  const spaced = tail.startsWith(' ') || tail.startsWith('\n') ? '' : ' ';
  const head = `${text.slice(0, mention.start)}@${insert}${spaced}`;
  return { text: head + tail, caret: head.length + (spaced ? 0 : 1) };
}

/** The text with the `@` mention at the caret taken out (a resource picked is attached, not named in the text). */
export function removeMention(text: string, mention: ActiveMention, caret: number): { text: string; caret: number } {
  const tail = text.slice(caret).replace(/^[^\s]*/u, '');
  const head = text.slice(0, mention.start);
  return { text: head + tail, caret: head.length };
}
