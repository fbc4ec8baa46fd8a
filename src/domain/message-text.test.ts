import { describe, expect, it } from 'vitest';
import { findInText, latestMatch, plainText } from './message-text';

describe('where a search finds its words in a message', () => {
  it('ignores case and runs of white space, and keeps the text as it is spelled', () => {
    expect(findInText('Take the Appian Way to the catacombs.', 'APPIAN   way')).toEqual({
      before: 'Take the ',
      match: 'Appian Way',
      after: ' to the catacombs.',
    });
    expect(findInText('Take the Appian Way', 'appian road')).toBeUndefined();
    expect(findInText('anything', '   ')).toBeUndefined();
  });

  it('reads what a person types literally: no character has a special meaning', () => {
    expect(findInText('costs $5 (or more?) [est.]', '(or more?) [est')?.match).toBe('(or more?) [est');
    expect(findInText('a.b', 'a*b')).toBeUndefined();
  });

  it('reads the needle as the text is shown: what a person copies from an answer finds it', () => {
    const shown = [{ id: 'm1', role: 'assistant', blocks: [{ type: 'text', text: 'Run `npm ci`, then 2 * 3 | wc' }] }];
    expect(latestMatch(shown, '`npm ci`')?.match.match).toBe('npm ci');
    expect(latestMatch(shown, '2 * 3 | wc')?.messageId).toBe('m1');
    expect(latestMatch(shown, '**')).toBeUndefined(); // Marks alone are no words.
  });

  it('shows a little text either side, cut at a space and marked as cut', () => {
    const text = `${'word '.repeat(20)}needle ${'tail '.repeat(30)}`.trim();
    const found = findInText(text, 'needle')!;
    expect(found.before.startsWith('…word ')).toBe(true);
    expect(found.before.length).toBeLessThanOrEqual(25);
    expect(found.after.endsWith('tail…')).toBe(true);
    expect(found.after.length).toBeLessThanOrEqual(81);
  });

  it('searches the text as shown: Markdown marks do not split a phrase', () => {
    expect(plainText('Rome is **mild**, see [the guide](https://x.y).\n\n- pack _light_')).toBe(
      'Rome is mild, see the guide. pack light',
    );
    const shown = [
      { id: 'm1', role: 'user', blocks: [{ type: 'text', text: 'Is Rome *mild* in November?' }] },
      {
        id: 'm2',
        role: 'assistant',
        blocks: [
          { type: 'tool_use', id: 't', name: 'weather', input: { city: 'mild Rome' } },
          { type: 'text', text: 'Rome is **mild**.' },
        ],
      },
      { id: 'm3', role: 'user', blocks: [{ type: 'tool_result', tool_use_id: 't', content: [] }] },
    ];
    // The latest message that holds it, and only its text: a tool call's input is not what the person reads.
    expect(latestMatch(shown, 'rome is mild')).toMatchObject({ messageId: 'm2', role: 'assistant' });
    expect(latestMatch(shown, 'mild in')).toMatchObject({ messageId: 'm1', role: 'user' });
    expect(latestMatch(shown, 'mild rome')).toBeUndefined();
    // A stored record of another shape is read as having no text, not as an error.
    expect(
      latestMatch(
        [
          { id: 'x', blocks: 'corrupt' },
          { id: 'y', blocks: [null, { type: 'text' }] },
        ],
        'a',
      ),
    ).toBe(undefined);
  });
});
