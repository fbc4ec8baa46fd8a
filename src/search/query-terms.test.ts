import { describe, expect, it } from 'vitest';
import { GENERIC_SOURCE, impliedWords, MAX_QUERY_CHARS, queryTerms } from './query-terms';

const own = (query: string) => [...queryTerms(query)].filter(([, t]) => t.kind === 'own').map(([term]) => term);

describe('query terms', () => {
  it('drops the words of asking ("can you help me find") unless nothing else is left', () => {
    expect(own('Can you help me find a recipe?')).toEqual(['recip']);
    expect(own('help')).toEqual(['help']);
  });

  it('reads file names and paths as the kind of tool they need', () => {
    expect(impliedWords('save it to /root/ppt/apple.pptx')).toContain('powerpoint presentation');
    expect(impliedWords('write the report to /root/markdown/cancer.md')).toContain('markdown file write');
    expect(impliedWords('run a scan on www.example.com')).toContain('url website domain');
    expect(impliedWords('improve search engine optimization')).toContain('seo');
    expect(impliedWords('nothing special here')).toBe('');
  });

  it('adds related words at a lower weight, each standing for the word that brought it', () => {
    const terms = queryTerms('homestay in Paris', { relatedWeight: 0.5 });
    expect(terms.get('homestai')).toEqual({ weight: 1, source: 'homestai', kind: 'own' });
    expect(terms.get('airbnb')).toMatchObject({ source: 'homestai' });
    expect(terms.get('airbnb')!.weight).toBeLessThan(1);
    expect(queryTerms('homestay').has('airbnb')).toBe(false);
  });

  it('drops what is left of contractions ("I\'m", "we\'ve", "don\'t")', () => {
    expect(own("I'm sure we've booked it, don't we? They're right")).toEqual(['sure', 'book', 'right']);
  });

  it('searches generic words ("detailed information") at a lower weight, all of them standing for one word', () => {
    const terms = queryTerms('detailed information on specific weather options', {
      genericWeight: 0.5,
      relatedWeight: 0.5,
    });
    expect(terms.get('weather')).toEqual({ weight: 1, source: 'weather', kind: 'own' });
    const generic = ['detail', 'inform', 'specif', 'option'].map((term) => terms.get(term));
    expect(generic).toEqual(generic.map(() => ({ weight: 0.5, source: GENERIC_SOURCE, kind: 'generic' })));
    // Only the words of the need bring related words.
    expect([...terms.values()].filter((t) => t.kind === 'related').every((t) => t.source === 'weather')).toBe(true);
  });

  it('searches generic words like any other by default, and on their own when nothing else is asked', () => {
    expect(queryTerms('detailed weather').get('detail')).toMatchObject({ weight: 1, kind: 'own' });
    expect([...queryTerms('recommendations', { genericWeight: 0.5 }).keys()]).toEqual(['recommend']);
  });

  it('also searches the broader words of a specific thing, but not the other way round', () => {
    const laptop = queryTerms('a cheap laptop', { relatedWeight: 0.5 });
    expect(laptop.get('product')).toMatchObject({ kind: 'related', source: 'laptop' });
    expect(laptop.get('discount')).toMatchObject({ kind: 'related', source: 'cheap' });
    expect(queryTerms('products', { relatedWeight: 0.5 }).has('laptop')).toBe(false);
    expect(queryTerms('a cheap laptop', { relatedWeight: 0.5, broaderWords: false }).has('product')).toBe(false);
    expect(queryTerms('the directors of Tesco', { relatedWeight: 0.5 }).get('compani')).toMatchObject({
      source: 'director',
    });
  });

  it('reads only the first MAX_QUERY_CHARS characters', () => {
    const terms = own(`${'x '.repeat(MAX_QUERY_CHARS / 2)} weather`);
    expect(terms).not.toContain('weather');
  });
});
