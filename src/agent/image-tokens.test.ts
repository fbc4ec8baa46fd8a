import { describe, expect, it } from 'vitest';
import { noisePng } from '../../test/fixtures/hostile/limits-server';
import { estimateTokens } from './compaction-context';
import { imageTokens, MAX_IMAGE_TOKENS } from './image-tokens';

const screenshot = (size: number) => noisePng(size).toString('base64');
const toolResult = (images: string[]) => ({
  type: 'tool_result',
  tool_use_id: 'toolu_1',
  content: images.map((data) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } })),
});

describe('image token estimate', () => {
  it('counts a PNG by its pixels, not by the length of its base64 data', () => {
    const data = screenshot(180);
    expect(data.length).toBeGreaterThan(120_000);
    expect(imageTokens(data)).toBe(Math.ceil((180 * 180) / 750));
  });

  it('counts a large PNG and data it cannot read as the largest image the API keeps', () => {
    expect(imageTokens(screenshot(1200))).toBe(MAX_IMAGE_TOKENS);
    expect(imageTokens('/9j/4AAQSkZJRgABAQAAAQABAAD')).toBe(MAX_IMAGE_TOKENS);
    expect(imageTokens('not base64 at all!')).toBe(MAX_IMAGE_TOKENS);
  });

  it('a request with ten 130 KB screenshots is estimated at a few thousand tokens, far under a compaction threshold', () => {
    const images = Array.from({ length: 10 }, () => screenshot(180));
    const tokens = estimateTokens([{ role: 'user', content: [toolResult(images)] }]);
    expect(tokens).toBeLessThan(10 * MAX_IMAGE_TOKENS + 1_000);
    expect(tokens).toBeGreaterThanOrEqual(10 * Math.ceil((180 * 180) / 750));
    // Text still counts four characters a token.
    expect(estimateTokens({ text: 'x'.repeat(40_000) })).toBeGreaterThan(10_000);
  });
});
