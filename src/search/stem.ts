// The Porter (1980) stemmer for English words, so that "papers", "paper" and "stocks"/"stock" meet in the index.
// Words with anything but a-z, or shorter than three letters, are returned unchanged (names, numbers, other scripts).

const isConsonantAt = (w: string, i: number): boolean => {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 || !isConsonantAt(w, i - 1); // y
  return true;
};

/** The Porter "measure": the number of vowel-consonant sequences in the stem. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonantAt(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonantAt(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonantAt(stem, i)) i++;
    m++;
  }
  return m;
}

const hasVowel = (stem: string): boolean => {
  for (let i = 0; i < stem.length; i++) if (!isConsonantAt(stem, i)) return true;
  return false;
};

const endsWithDoubleConsonant = (w: string): boolean =>
  w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonantAt(w, w.length - 1);

/** consonant-vowel-consonant at the end, the last not w, x or y. */
const endsCvc = (w: string): boolean => {
  const n = w.length;
  if (n < 3) return false;
  if (!isConsonantAt(w, n - 1) || isConsonantAt(w, n - 2) || !isConsonantAt(w, n - 3)) return false;
  const last = w[n - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
};

/** Replaces the first matching suffix when the remaining stem's measure passes `minMeasure`. */
function replaceSuffix(w: string, rules: readonly (readonly [string, string])[], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    return measure(stem) > minMeasure ? stem + replacement : w;
  }
  return w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);

  if (w.endsWith('eed')) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  let stripped: string | undefined;
  if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) stripped = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) stripped = w.slice(0, -3);
  if (stripped === undefined) return w;
  if (stripped.endsWith('at') || stripped.endsWith('bl') || stripped.endsWith('iz')) return `${stripped}e`;
  if (endsWithDoubleConsonant(stripped) && !/[lsz]$/.test(stripped)) return stripped.slice(0, -1);
  if (measure(stripped) === 1 && endsCvc(stripped)) return `${stripped}e`;
  return stripped;
}

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    if (suffix === 'ion' && !/[st]$/.test(stem)) return w;
    return measure(stem) > 1 ? stem : w;
  }
  return w;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

/** The Porter stem of a lowercase English word; other words unchanged. */
export function porterStem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  let w = step1ab(word);
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}
