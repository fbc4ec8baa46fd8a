import { describe, expect, it } from 'vitest';
import { modelEnded } from './stop-reason';

describe('how a sampled answer ended, in plain words', () => {
  it('names the usual endings without the API codes', () => {
    expect(modelEnded('end_turn')).toBe('The model finished');
    expect(modelEnded('endTurn')).toBe('The model finished');
    expect(modelEnded('max_tokens')).toBe('The model hit the token limit');
    expect(modelEnded('stop_sequence')).toBe('The model reached a stop sequence');
    expect(modelEnded('refusal')).toBe('The model declined to answer');
  });

  it('names an ending it does not know as the API gave it', () => {
    expect(modelEnded('something_new')).toBe('The model stopped (something_new)');
  });
});
