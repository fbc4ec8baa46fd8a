import { describe, expect, it } from 'vitest';
import { containerDepth, markdownBudgetProblem, markdownNesting, MAX_MARKDOWN_NESTING } from './markdown-budget';

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
  it('says why text is not formatted: too deep or too long', () => {
    expect(markdownBudgetProblem('- '.repeat(1500) + 'x')).toBe('it nests more than 32 levels deep');
    expect(markdownBudgetProblem('a'.repeat(100_001))).toBe('it is longer than 100,000 characters');
    expect(markdownBudgetProblem('Plain **answer**.')).toBeUndefined();
  });
});
