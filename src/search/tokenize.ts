import { porterStem } from './stem';

// Words of any script: letters (with their combining marks) and digits; everything else separates.
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
// Scripts written without spaces: indexed as overlapping character pairs so a query finds a part of a phrase.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]+/u;
const UNSPACED_RUNS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]+)/u;
// eslint-disable-next-line no-control-regex -- the test for "plain ASCII", the common and fast case
const NON_ASCII = /[^\u0000-\u007f]/;
const MAX_TERM_LENGTH = 40;

/** English function words that say nothing about what a tool does (and URL noise: www, http, com). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each etc few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just let me more most my myself no nor not now of off on once only or ' +
    'other our ours ourselves out over own same she should so some such than that the their theirs them themselves then ' +
    'there these they this those through to too under until up very was we were what when where which while who whom why ' +
    'will with would you your yours yourself yourselves also may might must shall us via e g ie eg s t www http https com ' +
    // What is left of a contraction once the apostrophe splits it: I'm, we've, you'll, they're, I'd, don't.
    'm ve ll re d don doesn didn isn aren wasn weren hasn haven hadn couldn shouldn wouldn'
  ).split(' '),
);

/** Splits camelCase and PascalCase inside one word: "getHTTPResponse" → get HTTP Response; "NFTs" stays whole. */
function splitCase(word: string): string[] {
  if (!/\p{Lu}/u.test(word)) return [word];
  return word
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})(?!s?(?:\P{L}|$))/gu, '$1 $2')
    .split(' ');
}

/** Character pairs of a run written without spaces (a single character stays as it is). */
function pairs(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

// Character classes of the ASCII fast path.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const ASCII_KINDS = Uint8Array.from({ length: 128 }, (_, c) =>
  c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : OTHER,
);
const kindOf = (c: number): number => (c < 128 ? ASCII_KINDS[c]! : OTHER);

/** splitWords for ASCII text, without regular expressions: the same rules, several times faster. */
function splitAscii(text: string, out: string[]): void {
  const n = text.length;
  const lower = text.toLowerCase();
  let start = -1;
  let prev = OTHER;
  for (let i = 0; i <= n; i++) {
    const kind = i < n ? kindOf(text.charCodeAt(i)) : OTHER;
    const before = prev;
    prev = kind;
    if (kind === OTHER) {
      if (start >= 0) out.push(lower.slice(start, i));
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    if (kind !== UPPER) continue;
    let isBoundary = before === LOWER || before === DIGIT;
    if (before === UPPER && i + 1 < n && kindOf(text.charCodeAt(i + 1)) === LOWER) {
      // "HTTPResponse" splits before "Response"; "NFTs", "APIsList" and "IPv4" (one lowercase letter, perhaps
      // a plural "s", then no lowercase letter) do not.
      let j = i + 2;
      if (j < n && text.charCodeAt(j) === 115) j++;
      isBoundary = j < n && kindOf(text.charCodeAt(j)) === LOWER;
    }
    if (isBoundary) {
      out.push(lower.slice(start, i));
      start = i;
    }
  }
}

/** The words of a text or identifier, lowercased: snake, kebab, camel and Pascal case, dots and slashes all split. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  if (!NON_ASCII.test(text)) {
    splitAscii(text, out);
    return out;
  }
  for (const match of text.normalize('NFKC').matchAll(WORD)) {
    const word = match[0];
    if (!NON_ASCII.test(word)) {
      splitAscii(word, out);
      continue;
    }
    if (UNSPACED.test(word)) {
      for (const part of word.split(UNSPACED_RUNS)) {
        if (!part) continue;
        if (UNSPACED.test(part)) out.push(...pairs(part));
        else for (const piece of splitCase(part)) if (piece) out.push(piece.toLowerCase());
      }
      continue;
    }
    for (const piece of splitCase(word)) if (piece) out.push(piece.toLowerCase());
  }
  return out;
}

// Words the stemmer would merge with a different word ("news" → "new").
const UNSTEMMED: ReadonlySet<string> = new Set(['news', 'gps', 'sms', 'aws', 'ios', 'dns', 'cms', 'rss']);
// Irregular English forms the suffix rules cannot reach ("bought" is "buy", "children" is "child").
const IRREGULAR: ReadonlyMap<string, string> = new Map(
  (
    'bought:buy sold:sell paid:pay ran:run made:make found:find took:take taken:take got:get gotten:get ' +
    'gave:give given:give wrote:write written:write drove:drive driven:drive ate:eat eaten:eat flew:fly flown:fly ' +
    'built:build sent:send spent:spend kept:keep met:meet told:tell thought:think brought:bring ' +
    'taught:teach caught:catch sought:seek chose:choose chosen:choose began:begin begun:begin sang:sing sung:sing ' +
    'saw:see seen:see knew:know known:know grew:grow grown:grow drew:draw drawn:draw threw:throw thrown:throw ' +
    'spoke:speak spoken:speak stole:steal stolen:steal lost:lose held:hold heard:hear ' +
    'children:child men:man women:woman people:person mice:mouse feet:foot teeth:tooth geese:goose ' +
    'analyses:analysis theses:thesis criteria:criterion phenomena:phenomenon indices:index matrices:matrix'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);
const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 50_000;
/** Each word's term, or null for a word that is not indexed (a stop word, or too long to be one). */
const termCache = new Map<string, string | null>();

/** The index form of one lowercase word: stemmed when it is English, unchanged otherwise. */
export function normalizeTerm(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = UNSTEMMED.has(word) ? word : porterStem(IRREGULAR.get(word) ?? word);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, stem);
  }
  return stem;
}

/** The search terms of a text: words split, lowercased, stop words dropped, stemmed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) {
    // One lookup for the common case: a word seen before, stop word or not.
    let term = termCache.get(word);
    if (term === undefined) {
      term = word.length > MAX_TERM_LENGTH || STOP_WORDS.has(word) ? null : normalizeTerm(word);
      if (termCache.size >= STEM_CACHE_LIMIT) termCache.clear();
      termCache.set(word, term);
    }
    if (term !== null) out.push(term);
  }
  return out;
}
