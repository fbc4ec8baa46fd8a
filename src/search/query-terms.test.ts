import { describe, expect, it } from 'vitest';
import { impliedWords, MAX_QUERY_CHARS, queryTerms } from './query-terms';

const own = (query: string) => [...queryTerms(query)].filter(([, t]) => t.weight === 1).map(([term]) => term);

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
    expect(terms.get('homestai')).toEqual({ weight: 1, source: 'homestai' });
    expect(terms.get('airbnb')).toMatchObject({ source: 'homestai' });
    expect(terms.get('airbnb')!.weight).toBeLessThan(1);
    expect(queryTerms('homestay').has('airbnb')).toBe(false);
  });

  it('reads only the first MAX_QUERY_CHARS characters', () => {
    const terms = own(`${'x '.repeat(MAX_QUERY_CHARS / 2)} weather`);
    expect(terms).not.toContain('weather');
  });
});
