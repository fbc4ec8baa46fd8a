import { toMatch, type RegexSearchError, type ToolMatch, type ToolSearchResult } from './search-result';
import type { ToolDocument } from './tool-document';

/** Longest pattern accepted. */
export const MAX_PATTERN_CHARS = 200;
/** Most unbounded repetitions (`*`, `+`, `{n,}`, `{n,m}` with m > 20) in one pattern. */
export const MAX_UNBOUNDED_REPEATS = 2;
// Each field is cut to this length before matching: with at most two unbounded repetitions, the worst backtracking
// grows with the cube of the length, so 256 characters cost a few milliseconds at most.
const MAX_FIELD_CHARS = 256;
const DEFAULT_SCAN_CHARS = 3_000_000;
const DEFAULT_TIME_BUDGET_MS = 100;

// Weights by where the pattern matched: a tool's own name says most.
const FIELD_WEIGHTS = { name: 3, description: 1.5, server: 1, params: 0.5 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
const FIELD_ORDER: readonly Field[] = ['name', 'description', 'server', 'params'];

/** Bounds of one regex search. */
export interface RegexSearchOptions {
  readonly limit: number;
  /** Stop after matching this many characters in total (default 3,000,000). */
  readonly maxScanChars?: number;
  /** Stop after this many milliseconds by `now` (default 100). */
  readonly timeBudgetMs?: number;
  readonly now?: () => number;
}

const fail = (kind: RegexSearchError['kind'], message: string): ToolSearchResult => ({
  ok: false,
  matches: [],
  error: { kind, message },
});

/** Reads a `{n}`, `{n,}` or `{n,m}` quantifier at `i`: its length and whether it repeats without a small bound. */
function braceQuantifier(pattern: string, i: number): { length: number; isUnbounded: boolean } | undefined {
  const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!match) return undefined;
  const isUnbounded = match[2] !== undefined && (match[3] === '' || Number(match[3]) > 20);
  return { length: match[0].length, isUnbounded };
}

/** Why a pattern could take exponential (or very long) time to fail, or undefined when it looks safe. */
export function unsafePatternReason(pattern: string): string | undefined {
  const groups: { hasRepeat: boolean; hasAlternation: boolean }[] = [{ hasRepeat: false, hasAlternation: false }];
  let unbounded = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const top = groups[groups.length - 1]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))
        return 'back-references (\\1, \\k<name>) are not supported';
      i++;
      continue;
    }
    if (c === '[') {
      // Skip a character class: nothing inside it repeats.
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      continue;
    }
    if (c === '(') {
      groups.push({ hasRepeat: false, hasAlternation: false });
      continue;
    }
    if (c === '|') {
      top.hasAlternation = true;
      continue;
    }
    let repeat: { length: number; isUnbounded: boolean } | undefined;
    if (c === '*' || c === '+') repeat = { length: 1, isUnbounded: true };
    else if (c === '{') repeat = braceQuantifier(pattern, i);
    if (c === ')') {
      const closed = groups.length > 1 ? groups.pop()! : top;
      const after = pattern[i + 1];
      const outer =
        after === '*' || after === '+'
          ? { length: 1, isUnbounded: true }
          : after === '{'
            ? braceQuantifier(pattern, i + 1)
            : undefined;
      if (outer && closed.hasRepeat)
        return 'a repeated group contains a repetition, as in (a+)+, which can take exponential time; remove one of them';
      if (outer?.isUnbounded && closed.hasAlternation)
        return 'a repeated group contains alternatives, as in (a|ab)*, which can take exponential time; search for the alternatives without repeating the group';
      const parent = groups[groups.length - 1]!;
      parent.hasRepeat ||= closed.hasRepeat || outer !== undefined;
      parent.hasAlternation ||= closed.hasAlternation;
      if (outer) {
        if (outer.isUnbounded) unbounded++;
        i += outer.length;
      }
      continue;
    }
    if (repeat) {
      top.hasRepeat = true;
      if (repeat.isUnbounded) unbounded++;
      i += repeat.length - 1;
    }
  }
  if (unbounded > MAX_UNBOUNDED_REPEATS)
    return `at most ${MAX_UNBOUNDED_REPEATS} unbounded repetitions (*, +, {n,}) are allowed in one pattern`;
  return undefined;
}

/** Compiles a search pattern (case-insensitive), or says why it cannot be used. */
export function compilePattern(pattern: string): RegExp | RegexSearchError {
  if (pattern.trim() === '')
    return {
      kind: 'empty-pattern',
      message: 'The pattern is empty; give a regular expression such as "weather|forecast".',
    };
  if (pattern.length > MAX_PATTERN_CHARS) {
    return {
      kind: 'pattern-too-long',
      message: `The pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are allowed.`,
    };
  }
  const reason = unsafePatternReason(pattern);
  if (reason) return { kind: 'unsafe-pattern', message: `The pattern was refused: ${reason}.` };
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { kind: 'invalid-pattern', message: `The pattern is not a valid regular expression (${detail}).` };
  }
}

/** Tools whose name, description, server name or parameters match `pattern`, best first; never throws. */
export function regexSearch(
  pattern: string,
  docs: readonly ToolDocument[],
  options: RegexSearchOptions,
): ToolSearchResult {
  const compiled = compilePattern(pattern);
  if (!(compiled instanceof RegExp)) return fail(compiled.kind, compiled.message);
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS);
  let budget = options.maxScanChars ?? DEFAULT_SCAN_CHARS;
  let isTruncated = false;
  const scored: { doc: ToolDocument; score: number }[] = [];
  scan: for (const doc of docs) {
    let score = 0;
    for (const field of FIELD_ORDER) {
      if (budget <= 0 || now() > deadline) {
        isTruncated = true;
        break scan;
      }
      const text = doc[field].slice(0, MAX_FIELD_CHARS);
      budget -= text.length;
      if (text && compiled.test(text)) score += FIELD_WEIGHTS[field];
    }
    if (score > 0) scored.push({ doc, score });
  }
  scored.sort((a, b) => b.score - a.score || a.doc.id - b.doc.id);
  const matches: ToolMatch[] = scored.slice(0, options.limit).map(({ doc, score }) => toMatch(doc.tool, score));
  return isTruncated ? { ok: true, matches, isTruncated } : { ok: true, matches };
}
