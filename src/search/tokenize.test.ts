import { describe, expect, it } from 'vitest';
import { porterStem } from './stem';
import { splitWords, tokenize } from './tokenize';

describe('splitWords: tool names become the words a person would type', () => {
  it.each([
    ['get_current_time', ['get', 'current', 'time']],
    ['list-component-examples', ['list', 'component', 'examples']],
    ['drawing_generateCanvas', ['drawing', 'generate', 'canvas']],
    ['getHTTPResponse', ['get', 'http', 'response']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['ResearchHelper', ['research', 'helper']],
    ['files.read', ['files', 'read']],
    ['get-36kr-trending', ['get', '36kr', 'trending']],
    ['get_top_10', ['get', 'top', '10']],
    ['mcp__srv__read_file', ['mcp', 'srv', 'read', 'file']],
  ])('%s', (name, words) => {
    expect(splitWords(name)).toEqual(words);
  });

  it('keeps plural acronyms whole ("NFTs", "APIs"), and IPv4', () => {
    expect(splitWords('NFTs and APIsList IPv4')).toEqual(['nfts', 'and', 'apis', 'list', 'ipv4']);
  });

  it('gives the same words for ASCII text whichever path splits it', () => {
    const text = 'getHTTPResponse of the NFTs, XMLHttpRequest — drawing_getCanvasPng';
    const ascii = splitWords(text.replace('—', '-'));
    expect(splitWords(text)).toEqual(ascii);
  });

  it('keeps letters of other scripts, accents included', () => {
    expect(splitWords('Météo à Zürich')).toEqual(['météo', 'à', 'zürich']);
    expect(splitWords('Погода в Москве')).toEqual(['погода', 'в', 'москве']);
  });

  it('splits Chinese and Japanese text, written without spaces, into character pairs', () => {
    expect(splitWords('获取天气')).toEqual(['获取', '取天', '天气']);
    expect(splitWords('BBC新闻')).toEqual(['bbc', '新闻']);
    expect(splitWords('鸣')).toEqual(['鸣']);
  });

  it('returns nothing for empty or punctuation-only text', () => {
    expect(splitWords('')).toEqual([]);
    expect(splitWords(' -_/.,;!? ')).toEqual([]);
  });
});

describe('tokenize', () => {
  it('drops stop words and stems English words so forms meet', () => {
    expect(tokenize('Search the papers')).toEqual(['search', 'paper']);
    expect(tokenize('searching paper')).toEqual(['search', 'paper']);
    expect(tokenize('get_stock_prices')).toEqual(tokenize('get stock price'));
  });

  it('brings irregular forms to their base word ("bought" meets "buy", "children" meets "child")', () => {
    expect(tokenize('bought tickets')).toEqual(tokenize('buy ticket'));
    expect(tokenize('children women')).toEqual(tokenize('child woman'));
    expect(tokenize('written analyses')).toEqual(tokenize('write analysis'));
  });

  it('keeps "news" apart from "new"', () => {
    expect(tokenize('news')).toEqual(['news']);
    expect(tokenize('new')).toEqual(['new']);
  });

  it('leaves words with letters beyond ASCII unstemmed', () => {
    expect(tokenize('données météo Прогнозы')).toEqual(['données', 'météo', 'прогнозы']);
  });

  it('handles a very long text without trouble', () => {
    const long = 'weather forecast '.repeat(20_000);
    expect(tokenize(long)).toHaveLength(40_000);
  });
});

describe('porterStem', () => {
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['agreed', 'agre'],
    ['hopping', 'hop'],
    ['filing', 'file'],
    ['relational', 'relat'],
    ['generalization', 'gener'],
    ['electrical', 'electr'],
    ['adjustable', 'adjust'],
    ['controll', 'control'],
  ])('%s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('returns short and non-ASCII words unchanged', () => {
    expect(porterStem('is')).toBe('is');
    expect(porterStem('café')).toBe('café');
  });
});
