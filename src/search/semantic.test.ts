import { describe, expect, it } from 'vitest';
import { SemanticScorer } from './semantic';
import { madeUpWordVectors, searchableTool } from '../../test/fakes/search-tools';
import { toolDocument } from './tool-document';
import { createToolIndex } from './tool-index';
import { encodeWordVectors, parseWordVectors } from './word-vectors';

const vectors = madeUpWordVectors();
const tool = (server: string, description: string) => searchableTool(server, 'act', description);

describe('semantic re-ranking', () => {
  it('breaks a tie of words toward the nearer meaning, and follows a server that re-lists its tools', () => {
    const index = createToolIndex();
    index.setWordVectors(vectors);
    index.upsertServer('first', [tool('first', 'Plom the trel.')]);
    index.upsertServer('second', [tool('second', 'Zuba the trel.')]);
    const scope = { serverIds: new Set(['first', 'second']) };
    const order = (query: string) => index.search(query, { scope }).matches.map((m) => m.serverName);
    expect(order('kwix trel')).toEqual(['second', 'first']);
    // A word no vector knows moves nothing: the tie goes to the tool indexed first.
    expect(order('blorf trel')).toEqual(['first', 'second']);

    // Re-listed the other way round (second, then first: by words alone the tie now goes to second).
    index.upsertServer('second', [tool('second', 'Plom the trel.')]);
    index.upsertServer('first', [tool('first', 'Zuba the trel.')]);
    expect(order('kwix trel')).toEqual(['first', 'second']);
    index.setWordVectors(undefined);
    expect(order('kwix trel')).toEqual(['second', 'first']);
  });
});

describe('the semantic closeness of a request and a tool', () => {
  const axes = parseWordVectors(
    encodeWordVectors(
      ['kom', 'plom', 'trel'],
      [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    ).slice().buffer,
  );
  const doc = (id: number, description: string) => toolDocument(id, tool(`server-${id}`, description));
  const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
  const dotOf = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
  const without = (v: number[], u: number[]) => unit(v.map((x, i) => x - dotOf(v, u) * u[i]!));

  it("is the cosine once what the catalog's tools share is taken out, which can turn the order around", () => {
    const a = doc(1, 'kom kom kom plom');
    const b = doc(2, 'kom trel');
    const fillers = [doc(3, 'kom'), doc(4, 'kom')];
    const scorer = new SemanticScorer(axes, { size: 4, documentFrequency: () => 1, sample: () => [a, b, ...fillers] });
    const [toA, toB] = scorer.closeness('kom kom kom kom trel', [a, b]);
    // Worked out here: the catalog's mean direction u, and the cosines of the request and each tool without it.
    const [va, vb] = [unit([3, 1, 0]), unit([1, 0, 1])];
    const u = unit([va[0]! + vb[0]! + 2, va[1]! + vb[1]!, va[2]! + vb[2]!]);
    const q = without([4, 0, 1], u);
    expect(toA).toBeCloseTo(dotOf(q, without(va, u)), 2);
    expect(toB).toBeCloseTo(dotOf(q, without(vb, u)), 2);
    // Taken whole, the request is nearer the first tool (0.92 against 0.86); without what all tools share, the second.
    expect(dotOf(unit([4, 0, 1]), va)).toBeGreaterThan(dotOf(unit([4, 0, 1]), vb));
    expect(toB!).toBeGreaterThan(toA!);
  });

  it("weighs a word by how few of the catalog's tools hold it, and weighs again after the catalog changes", () => {
    const a = doc(1, 'kom');
    const b = doc(2, 'plom');
    let frequency: Record<string, number> = { kom: 90, plom: 1 };
    const catalog = { size: 100, documentFrequency: (term: string) => frequency[term] ?? 0, sample: () => [] };
    const scorer = new SemanticScorer(axes, catalog);
    const [toA, toB] = scorer.closeness('kom plom', [a, b]);
    // ln(101 / 1.5) against ln(101 / 90.5): the rare word makes up most of the request's meaning.
    expect(toB).toBeCloseTo(Math.log(101 / 1.5) / Math.hypot(Math.log(101 / 1.5), Math.log(101 / 90.5)), 2);
    expect(toA).toBeCloseTo(Math.log(101 / 90.5) / Math.hypot(Math.log(101 / 1.5), Math.log(101 / 90.5)), 2);

    // A tool of both words leans toward the rare one; with the same number of tools but "kom" now the rare word, the
    // tool's vector is taken again (a vector cached with the old weights would still lean toward "plom").
    const both = doc(3, 'kom plom');
    expect(scorer.closeness('kom', [both])[0]).toBeLessThan(0.1);
    frequency = { kom: 1, plom: 90 };
    scorer.catalogChanged();
    expect(scorer.closeness('kom', [both])[0]).toBeGreaterThan(0.9);
  });
});
