import { describe, expect, it } from 'vitest';
import { compilePattern, MAX_PATTERN_CHARS, regexSearch, unsafePatternReason } from './regex-search';
import { toolDocument, type SearchableTool, type ToolDocument } from './tool-document';
import { createToolIndex, scopeForTools } from './tool-index';

function tool(serverId: string, toolName: string, description: string): SearchableTool {
  return {
    serverId,
    serverName: serverId,
    toolName,
    modelName: `mcp__${serverId}__${toolName}`,
    description,
    definition: { name: toolName, inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
  };
}

const TOOLS = [
  tool('weather', 'get_forecast', 'Weather forecast for a city.'),
  tool('weather', 'get_alerts', 'Severe alerts issued by the weather service.'),
  tool('github', 'create_issue', 'Open an issue in a repository.'),
];
const docs: ToolDocument[] = TOOLS.map((t, i) => toolDocument(i + 1, t));

describe('regex search', () => {
  it('matches names and descriptions case-insensitively, name matches first', () => {
    const result = regexSearch('FORECAST|weather', docs, { limit: 10 });
    expect(result.ok).toBe(true);
    expect(result.matches.map((m) => m.ref.toolName)).toEqual(['get_forecast', 'get_alerts']);
  });

  it('is selectable on the index and stays inside the scope', () => {
    const index = createToolIndex();
    index.upsertServer('weather', TOOLS.slice(0, 2));
    index.upsertServer('github', TOOLS.slice(2));
    const scope = scopeForTools(TOOLS.slice(2));
    expect(index.search('create.*issue|weather', { scope, strategy: 'regex' }).matches.map((m) => m.modelName)).toEqual(
      ['mcp__github__create_issue'],
    );
  });

  it('answers an invalid pattern with a typed error, not a throw', () => {
    const result = regexSearch('get_(forecast', docs, { limit: 10 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.matches).toEqual([]);
    expect(result.error.kind).toBe('invalid-pattern');
    expect(result.error.message).toMatch(/not a valid regular expression/);
  });

  it.each([
    ['(a+)+$', 'repetition'],
    ['(a*)*b', 'repetition'],
    ['(\\w+\\s?)*$', 'repetition'],
    ['(a|aa)+$', 'alternatives'],
    ['((ab)*c)+', 'repetition'],
    ['(x+x+)+y', 'repetition'],
    ['(a{1,30}){2,}', 'repetition'],
    ['(a)\\1', 'back-references'],
    ['.*a.*b.*c', 'unbounded repetitions'],
  ])('refuses the catastrophic pattern %s before matching any tool text, saying why', (pattern, reason) => {
    // Quick on any machine, however busy: the pattern is refused before it runs over a single name or description.
    let textsRead = 0;
    const watched = docs.map((doc) => {
      const copy = { ...doc };
      for (const field of ['name', 'description', 'server', 'params'] as const)
        Object.defineProperty(copy, field, {
          get: () => {
            textsRead++;
            return doc[field];
          },
        });
      return copy;
    });
    const result = regexSearch(pattern, watched, { limit: 10 });
    expect(textsRead).toBe(0);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('unsafe-pattern');
      expect(result.error.message).toContain(reason);
    }
  });

  it('accepts ordinary patterns with groups, classes and bounded repeats', () => {
    for (const pattern of [
      'get_(forecast|alerts)',
      '[a-z]+_issue',
      'weather.*city',
      '(issue){1,2}',
      '\\d{3}',
      '[(+*]',
    ]) {
      expect(unsafePatternReason(pattern)).toBeUndefined();
      expect(compilePattern(pattern)).toBeInstanceOf(RegExp);
    }
  });

  it('refuses empty and over-long patterns', () => {
    const empty = regexSearch('  ', docs, { limit: 10 });
    expect(!empty.ok && empty.error.kind).toBe('empty-pattern');
    const long = regexSearch('a'.repeat(MAX_PATTERN_CHARS + 1), docs, { limit: 10 });
    expect(!long.ok && long.error.kind).toBe('pattern-too-long');
  });

  it('stops when its time budget runs out and says the result is partial', () => {
    let clock = 0;
    const now = () => (clock += 10);
    const many = Array.from({ length: 100 }, (_, i) => toolDocument(i + 1, tool('s', `weather_${i}`, 'weather')));
    const result = regexSearch('weather', many, { limit: 50, timeBudgetMs: 30, now });
    expect(result.ok && result.isTruncated).toBe(true);
    expect(result.matches.length).toBeLessThan(100);
  });

  it('caps the text it scans', () => {
    const result = regexSearch('weather', docs, { limit: 10, maxScanChars: 10 });
    expect(result.ok && result.isTruncated).toBe(true);
  });

  it('finishes a pattern that backtracks polynomially over long descriptions in bounded time', () => {
    const long = Array.from({ length: 200 }, (_, i) => toolDocument(i + 1, tool('s', `t${i}`, 'a'.repeat(5_000))));
    const started = performance.now();
    const result = regexSearch('a*a*b', long, { limit: 10 });
    expect(performance.now() - started).toBeLessThan(500);
    expect(result.ok && result.matches).toEqual([]);
  });
});
