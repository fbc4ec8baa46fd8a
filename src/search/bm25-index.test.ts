import { describe, expect, it } from 'vitest';
import { Bm25Index, type WeightedTerm } from './bm25-index';

const PARAMS = { k: 1.2, b: 0.75, d: 0 };
const term = (t: string, weight = 1, source = t): WeightedTerm => ({ term: t, weight, source });
const ranked = (index: Bm25Index, terms: WeightedTerm[], boosts = [1, 1]) => {
  const { slots, scores, covered } = index.score(terms, boosts, PARAMS);
  return slots
    .map((slot) => ({ slot, score: scores[slot]!, covered: covered[slot]! }))
    .sort((a, b) => b.score - a.score);
};

describe('Bm25Index', () => {
  it('ranks a document with the rarer term higher', () => {
    const index = new Bm25Index(2);
    const common = index.add([['send'], ['send', 'message']]);
    const rare = index.add([['send'], ['fax']]);
    index.add([['read'], ['message']]);
    expect(ranked(index, [term('send'), term('fax')])[0]?.slot).toBe(rare);
    expect(ranked(index, [term('message')]).map((h) => h.slot)).toContain(common);
  });

  it('counts each query word once however many related terms match it', () => {
    const index = new Bm25Index(1);
    const slot = index.add([['stock', 'share', 'equity']]);
    const [hit] = ranked(index, [term('stock'), term('share', 0.5, 'stock'), term('equity', 0.5, 'stock')], [1]);
    expect(hit).toMatchObject({ slot, covered: 1 });
  });

  it('weights fields by their boost and ignores a zero boost', () => {
    const index = new Bm25Index(2);
    const inName = index.add([['weather'], ['report']]);
    const inBody = index.add([['report'], ['weather']]);
    expect(ranked(index, [term('weather')], [3, 1])[0]?.slot).toBe(inName);
    expect(ranked(index, [term('weather')], [0, 1]).map((h) => h.slot)).toEqual([inBody]);
  });

  it('scores the same after removals as a fresh index with the same documents', () => {
    const index = new Bm25Index(2);
    const first = index.add([['a'], ['x', 'y']]);
    const keep = index.add([['b'], ['x']]);
    const third = index.add([['c'], ['y', 'y']]);
    index.remove(first);
    index.remove(third);
    const fresh = new Bm25Index(2);
    fresh.add([['b'], ['x']]);
    expect(index.size).toBe(1);
    expect(index.documentFrequency('y')).toBe(0);
    expect(ranked(index, [term('x'), term('b')])).toEqual([
      { ...ranked(fresh, [term('x'), term('b')])[0]!, slot: keep },
    ]);
  });

  it('removes many documents at once, sharing terms, and scores as a fresh index', () => {
    const index = new Bm25Index(2);
    const docs = Array.from({ length: 40 }, (_, i) => [[`n${i}`], i % 3 ? ['x', 'y'] : ['x', 'z', 'x']]);
    const slots = docs.map((fields) => index.add(fields));
    index.removeMany(slots.filter((_, i) => i % 2 === 0));
    const fresh = new Bm25Index(2);
    const freshSlots = docs.filter((_, i) => i % 2 === 1).map((fields) => fresh.add(fields));
    expect(index.size).toBe(20);
    expect(index.documentFrequency('z')).toBe(fresh.documentFrequency('z'));
    const scoresOf = (ix: Bm25Index, slotsOf: number[]) => {
      const { scores } = ix.score([term('x'), term('z')], [1, 1], PARAMS);
      return slotsOf.map((slot) => scores[slot]);
    };
    expect(
      scoresOf(
        index,
        slots.filter((_, i) => i % 2 === 1),
      ),
    ).toEqual(scoresOf(fresh, freshSlots));
  });

  it('reuses the slots of removed documents', () => {
    const index = new Bm25Index(1);
    const first = index.add([['a']]);
    index.remove(first);
    index.remove(first);
    expect(index.add([['b']])).toBe(first);
    expect(index.size).toBe(1);
  });

  it('returns nothing for an empty index or unknown terms', () => {
    const index = new Bm25Index(1);
    expect(index.score([term('a')], [1], PARAMS).slots).toEqual([]);
    index.add([['a']]);
    expect(index.score([term('zzz')], [1], PARAMS).slots).toEqual([]);
  });

  it('finds the terms a term keeps company with, and forgets a removed document', () => {
    const index = new Bm25Index(1);
    index.add([['kanban', 'swimlane', 'card']]);
    const second = index.add([['kanban', 'swimlane', 'move']]);
    index.add([['swimlane', 'list']]);
    for (const other of ['weather', 'stock', 'news', 'route', 'math']) index.add([[other]]);
    // Both "kanban" documents hold "swimlane"; "card" and "move" stand in one each.
    expect(index.cooccurring('kanban', 2, 3)).toEqual([['swimlane', 1]]);
    // A term held by more documents than allowed brings nothing.
    expect(index.cooccurring('kanban', 1, 3)).toEqual([]);
    index.remove(second);
    // One document left: no company to learn from.
    expect(index.cooccurring('kanban', 2, 3)).toEqual([]);
  });
});
