import { describe, expect, it } from 'vitest';
import {
  containerDepth,
  containerMarks,
  inlineMarkRuns,
  markdownBudgetProblem,
  markdownNesting,
  MAX_MARKDOWN_NESTING,
} from './markdown-budget';

describe('markdownNesting', () => {
  it('finds the depth of hostile lists, quotes and emphasis (issue #15)', () => {
    expect(markdownNesting('- '.repeat(1500) + 'x')).toBeGreaterThanOrEqual(1500);
    expect(markdownNesting('>'.repeat(3000) + ' x')).toBeGreaterThanOrEqual(3000);
    expect(markdownNesting('*a '.repeat(4000) + 'b' + ' a*'.repeat(4000))).toBeGreaterThanOrEqual(4000);
    expect(markdownNesting('*'.repeat(300) + 'a' + '*'.repeat(300))).toBeGreaterThanOrEqual(300);
    expect(markdownNesting('1. '.repeat(100) + 'x')).toBeGreaterThanOrEqual(100);
  });

  it('counts a list nested by indentation, line after line', () => {
    const lines = Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i)}- level ${i}`);
    expect(markdownNesting(lines.join('\n'))).toBeGreaterThan(MAX_MARKDOWN_NESTING);
  });

  it('keeps ordinary answers well under the limit', () => {
    const answer = [
      '# Plan',
      'Some **bold**, *italic*, _under_ and __strong__ text, a snake_case_name and 2 * 3 * 4.',
      '- one\n  - two\n    - three\n      1. four',
      '> quoted\n> > twice',
      '```python\ndef f(*args, **kwargs):\n    return [x * 2 for x in args]\n```',
      '---\n***\n- - -',
      '*unclosed in one paragraph',
      'and the next paragraph starts afresh',
    ].join('\n\n');
    expect(markdownNesting(answer)).toBeLessThanOrEqual(4);
  });

  it('does not carry unclosed emphasis across paragraphs', () => {
    const paragraphs = Array.from({ length: 100 }, () => 'call f(*args) and *stay open').join('\n\n');
    expect(markdownNesting(paragraphs)).toBeLessThanOrEqual(2);
  });

  it('counts only leading markers, not dashes and stars inside a line', () => {
    expect(containerDepth('a - b - c > d * e')).toBe(0);
    expect(containerDepth('    code, no marker')).toBe(0);
    expect(containerDepth('> - 1) item')).toBe(3);
  });
});

describe('markdownBudgetProblem', () => {
  it('says why text is not formatted: too deep, too long, or too much for the parser to pair up', () => {
    expect(markdownBudgetProblem('- '.repeat(40) + 'x')).toBe('it nests more than 32 levels deep');
    expect(markdownBudgetProblem('a'.repeat(50_001))).toBe('it is longer than 50,000 characters');
    // 33,000 of these took the parser over a minute; 2,001 are refused.
    expect(markdownBudgetProblem('a* '.repeat(2001))).toBe('it has more than 2,000 emphasis, link or code marks');
    expect(markdownBudgetProblem('- item\n'.repeat(1001))).toBe('it has more than 1,000 list items and quote levels');
    expect(markdownBudgetProblem(('- '.repeat(32) + 'x\n').repeat(40))).toBe(
      'it has more than 1,000 list items and quote levels',
    );
    expect(markdownBudgetProblem('Plain **answer**.')).toBeUndefined();
  });

  it('leaves a long, richly formatted but ordinary answer to the parser', () => {
    const section = '## Step\n\nUse **this** and `that`, see [docs](https://x.test).\n\n- one\n- two\n\n> note\n\n';
    const answer = section.repeat(150); // about 13 KB, 900 inline marks, 450 list items and quotes
    expect(inlineMarkRuns(answer)).toBe(150 * 6);
    expect(containerMarks(answer)).toBe(150 * 3);
    expect(markdownBudgetProblem(answer)).toBeUndefined();
  });
});
