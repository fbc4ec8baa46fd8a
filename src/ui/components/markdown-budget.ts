/** Past these, untrusted text is shown as plain text: the markdown parser recurses per level and slows down with size. */
export const MAX_MARKDOWN_NESTING = 32;
export const MAX_MARKDOWN_CHARS = 50_000;
/**
 * The parser pairs emphasis marks, brackets and backticks by looking back over the earlier ones: its work grows with
 * the square of their number (33,000 unpaired `a*` took over a minute), so past this many it is not asked.
 */
export const MAX_INLINE_MARKS = 2000;
/** List items and quote levels in all: the parser's list handling also grows faster than their number. */
export const MAX_CONTAINER_MARKS = 1000;

/** Why `text` is shown as plain text rather than formatted, or undefined when it is safe to hand to the parser. */
export function markdownBudgetProblem(text: string): string | undefined {
  if (text.length > MAX_MARKDOWN_CHARS)
    return `it is longer than ${MAX_MARKDOWN_CHARS.toLocaleString('en')} characters`;
  if (inlineMarkRuns(text) > MAX_INLINE_MARKS)
    return `it has more than ${MAX_INLINE_MARKS.toLocaleString('en')} emphasis, link or code marks`;
  if (containerMarks(text) > MAX_CONTAINER_MARKS)
    return `it has more than ${MAX_CONTAINER_MARKS.toLocaleString('en')} list items and quote levels`;
  const depth = markdownNesting(text);
  return depth > MAX_MARKDOWN_NESTING ? `it nests more than ${MAX_MARKDOWN_NESTING} levels deep` : undefined;
}

const INLINE_MARK = /\*+|_+|`+|\[|\]/g;

/** How many runs of `*`, `_` or backticks, and brackets, the text holds: the marks the inline parser pairs up. */
export function inlineMarkRuns(text: string): number {
  let count = 0;
  INLINE_MARK.lastIndex = 0;
  while (INLINE_MARK.exec(text)) count += 1;
  return count;
}

/**
 * A cheap, linear over-estimate of how deep markdown would nest: block containers (quotes and list items, including
 * several on one line and indentation under a marker) and emphasis runs opened but not yet closed in a paragraph.
 */
export function markdownNesting(text: string): number {
  let deepest = 0;
  let emphasis = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const end = text.indexOf('\n', lineStart);
    const lineEnd = end === -1 ? text.length : end;
    const line = text.slice(lineStart, lineEnd);
    if (line.trim() === '') emphasis = 0; // Emphasis never spans paragraphs.
    deepest = Math.max(deepest, containerDepth(line));
    emphasis = emphasisDepthAfter(line, emphasis, (depth) => (deepest = Math.max(deepest, depth)));
    lineStart = lineEnd + 1;
  }
  return deepest;
}

/** The list and quote markers of all lines together. */
export function containerMarks(text: string): number {
  let count = 0;
  for (const line of text.split('\n')) count += containerDepth(line);
  return count;
}

const ORDERED_MARKER = /^\d{1,9}[.)]/;
const isBlank = (char: string | undefined) => char === undefined || char === ' ' || char === '\t';

/** Quote markers and list markers at the start of one line, plus its indentation (2 columns a level) under a marker. */
export function containerDepth(line: string): number {
  let markers = 0;
  let columns = 0;
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    if (char === ' ') columns += 1;
    else if (char === '\t') columns += 4;
    else {
      const marker = char === '>' ? 1 : markerLength(line, i);
      if (marker === 0) break;
      markers += 1;
      i += marker + (line[i + marker] === ' ' ? 1 : 0); // The space after a marker is part of it, not indentation.
      continue;
    }
    i += 1;
  }
  return markers === 0 ? 0 : markers + Math.floor(columns / 2);
}

/** The length of the list marker at `i` (`-`, `*`, `+`, `1.`, `1)` before a blank), or 0. */
function markerLength(line: string, i: number): number {
  const char = line[i];
  if ((char === '-' || char === '*' || char === '+') && isBlank(line[i + 1])) return 1;
  const ordered = ORDERED_MARKER.exec(line.slice(i, i + 11));
  return ordered && isBlank(line[i + ordered[0].length]) ? ordered[0].length : 0;
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
const isWhitespace = (char: string | undefined) => char === undefined || /\s/.test(char);
const isPunctuation = (char: string | undefined) => char !== undefined && PUNCTUATION.test(char);

/** Walks the `*` and `_` runs of a line (CommonMark's flanking rules): openers deepen, closers close. */
function emphasisDepthAfter(line: string, start: number, onDepth: (depth: number) => void): number {
  let depth = start;
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    if (char !== '*' && char !== '_') {
      i += 1;
      continue;
    }
    let runEnd = i;
    while (line[runEnd] === char) runEnd += 1;
    const before = line[i - 1];
    const after = line[runEnd];
    const opens = !isWhitespace(after) && (!isPunctuation(after) || isWhitespace(before) || isPunctuation(before));
    const closes = !isWhitespace(before) && (!isPunctuation(before) || isWhitespace(after) || isPunctuation(after));
    // A run that can both open and close pairs with its neighbour; only one-way runs change the depth.
    if (opens && !closes) onDepth((depth += runEnd - i));
    else if (closes && !opens) depth = Math.max(0, depth - (runEnd - i));
    i = runEnd;
  }
  return depth;
}
