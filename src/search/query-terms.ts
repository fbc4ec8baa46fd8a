import { relatedTerms } from './related-terms';
import { normalizeTerm, tokenize } from './tokenize';

/** Longest query text that is searched; the rest is ignored (a pasted document should not slow a call down). */
export const MAX_QUERY_CHARS = 1_000;

// A file name in a request says which kind of tool is needed: ".pptx" asks for a presentation tool.
const EXTENSION_WORDS: Readonly<Record<string, string>> = {
  md: 'markdown file write',
  markdown: 'markdown file write',
  txt: 'text file',
  doc: 'word document',
  docx: 'word document',
  ppt: 'powerpoint presentation slide',
  pptx: 'powerpoint presentation slide',
  xls: 'excel spreadsheet sheet',
  xlsx: 'excel spreadsheet sheet',
  csv: 'csv file',
  pdf: 'pdf document',
  png: 'image png',
  jpg: 'image jpeg',
  jpeg: 'image jpeg',
  svg: 'image svg',
  wav: 'audio',
  mp3: 'audio',
  py: 'python code file',
  ts: 'typescript code file',
  js: 'javascript code file',
  json: 'json file',
  html: 'html web page',
};
const FILE_NAME = /(?:^|[\s'"`(])((?:[~.]?\/)?(?:[\w.-]+\/)*[\w-]+\.([a-z0-9]{1,8}))(?=$|[\s'"`),;:!?.])/giu;
const PATH = /(?:^|[\s'"`(])(?:~|\.{1,2})?\/[\w.-]+\//u;
const URL_LIKE = /\bhttps?:\/\/|\bwww\.|\b[\w-]+\.(?:com|org|net|io|dev|gov|edu|co|ai)\b/iu;

// Phrases whose words mean something else together ("search engine optimization" is SEO, not a search).
const PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\bsearch engine (?:optimi[sz]ation|marketing|ranking)s?\b/iu, 'seo'],
  [/\breal[- ]estate\b/iu, 'property house'],
  [/\bartificial intelligence\b/iu, 'ai'],
  [/\bmachine learning\b/iu, 'ml ai'],
  [/\bt-?shirts?\b/iu, 'tshirt apparel'],
  [/\btime ?zones?\b/iu, 'timezone'],
  [/\bzip ?codes?\b/iu, 'zipcode'],
  [/\bqr ?codes?\b/iu, 'qrcode'],
  [/\bto-?do\b/iu, 'todo task'],
];

/** Extra words implied by file names, paths, URLs and a few phrases ("/root/x.pptx" → file, powerpoint, presentation). */
export function impliedWords(text: string): string {
  const words: string[] = [];
  for (const [phrase, implied] of PHRASES) if (phrase.test(text)) words.push(implied);
  if (PATH.test(text)) words.push('file');
  if (URL_LIKE.test(text)) words.push('url website domain');
  for (const match of text.matchAll(FILE_NAME)) {
    const extension = match[2]?.toLowerCase() ?? '';
    const implied = EXTENSION_WORDS[extension];
    if (implied) words.push(implied);
  }
  return words.join(' ');
}

/** Words in index form, stemmed on first use rather than while the first screen loads. */
class IndexWords implements ReadonlySet<string> {
  private built?: Set<string>;
  constructor(private readonly words: string) {}
  private get set(): Set<string> {
    return (this.built ??= new Set(this.words.split(' ').map(normalizeTerm)));
  }
  get size(): number {
    return this.set.size;
  }
  has(word: string): boolean {
    return this.set.has(word);
  }
  forEach(each: (value: string, key: string, set: ReadonlySet<string>) => void): void {
    this.set.forEach((value) => each(value, value, this));
  }
  entries = () => this.set.entries();
  keys = () => this.set.keys();
  values = () => this.set.values();
  [Symbol.iterator] = () => this.set.values();
}

/** Words of a request that ask for help rather than say what to do ("can you help me find…"), in index form. */
export const REQUEST_WORDS: ReadonlySet<string> = new IndexWords(
  'can could would please help want need like looking look find show tell give provide know let make get ' +
    'some any anything something thing things way ways using use',
);

/**
 * Words of a request that qualify it rather than name a need ("detailed information", "recommend some options"),
 * in index form. Tool descriptions use them as loosely ("personalized recommendations for specific needs"), so a full
 * match on them says little; they are searched at a lower weight instead of dropped, since a tool may be about them.
 * Not "user" or "request": in software catalogs they name the thing (user accounts, HTTP requests).
 */
export const GENERIC_WORDS: ReadonlySet<string> = new IndexWords(
  'specific specifically information info assist assistance recommend recommendation recommendations suggest ' +
    'suggestion suggestions option options include including detail details detailed ' +
    'comprehensive various enhance current currently relevant particular quick quickly easy easily personal ' +
    'personalized related based',
);

/** How a query becomes terms. */
export interface QueryTermOptions {
  /** Words ignored unless nothing else is left. */
  readonly dropWords?: ReadonlySet<string>;
  /** Weight of a word related to a query word (0 turns the expansion off). */
  readonly relatedWeight?: number;
  /** Words that say how to help rather than with what; searched at `genericWeight`, together counting as one word. */
  readonly genericWords?: ReadonlySet<string>;
  /** Weight of generic words (1: like any other word). */
  readonly genericWeight?: number;
  /** Whether related words include broader ones ("laptop" → product; see broader-terms.ts); default true. */
  readonly broaderWords?: boolean;
  /** Extra weight of a word per doubling of its count in the request (0: a word counts once however often used). */
  readonly repeatWeight?: number;
}

// Up to this many related words each get the full related weight.
const RELATED_SHARE = 8;

/** A term to search: its weight, the query word it stands for (itself, or the word it is related to), and its kind. */
export interface QueryTerm {
  readonly weight: number;
  readonly source: string;
  /** own: a word of the query that names the need; generic: one of GENERIC_WORDS; related: brought by a word. */
  readonly kind: 'own' | 'generic' | 'related';
}

/** What all generic words of a query stand for: a tool covers them as one query word. */
export const GENERIC_SOURCE = '\u0000generic';

/** The distinct terms of a query with their weights (1 for its own words); text beyond MAX_QUERY_CHARS is ignored. */
export function queryTerms(query: string, options: QueryTermOptions = {}): Map<string, QueryTerm> {
  const {
    dropWords = REQUEST_WORDS,
    relatedWeight = 0,
    genericWords = GENERIC_WORDS,
    genericWeight = 1,
    broaderWords = true,
    repeatWeight = 0,
  } = options;
  const text = query.slice(0, MAX_QUERY_CHARS);
  const terms = tokenize(`${text} ${impliedWords(text)}`);
  const kept = terms.filter((term) => !dropWords.has(term));
  // A query made only of request words ("help") still searches for them.
  const searched = kept.length > 0 ? kept : terms;
  const own = new Set(searched);
  const repeats = new Map<string, number>();
  for (const term of searched) repeats.set(term, (repeats.get(term) ?? 0) + 1);
  const out = new Map<string, QueryTerm>();
  for (const term of own) {
    const isGeneric = genericWeight < 1 && genericWords.has(term);
    // A word the request repeats is what it is about (BM25's query-term frequency, saturating).
    const weight = 1 + repeatWeight * Math.log(repeats.get(term) ?? 1);
    out.set(
      term,
      isGeneric
        ? { weight: genericWeight, source: GENERIC_SOURCE, kind: 'generic' }
        : { weight, source: term, kind: 'own' },
    );
  }
  if (relatedWeight > 0) {
    for (const term of own) {
      if (out.get(term)?.kind === 'generic') continue;
      const related = [...relatedTerms(term, broaderWords)].filter((other) => !out.has(other) && !dropWords.has(other));
      // A word with many related words spreads its weight over them, so one broad word cannot drown the others.
      const weight = relatedWeight / Math.max(1, related.length / RELATED_SHARE);
      for (const other of related) out.set(other, { weight, source: term, kind: 'related' });
    }
  }
  return out;
}
