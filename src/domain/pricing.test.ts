import { describe, expect, it } from 'vitest';
import { AppConfig } from './app-config';
import { costOf, DEFAULT_PRICES, formatUsd, priceOf } from './pricing';

const usage = { input: 1_000, output: 500, cacheWrite: 2_000, cacheRead: 10_000 };

describe('cost in dollars from the price table (issue #17 item 5)', () => {
  it('prices a call by input, output, cache write and cache read at the model’s rates', () => {
    // Sonnet 5: $2 in, $10 out, $2.50 cache write, $0.20 cache read per million tokens.
    expect(costOf('claude-sonnet-5', usage, DEFAULT_PRICES)).toEqual({
      usd: (1_000 * 2 + 500 * 10 + 2_000 * 2.5 + 10_000 * 0.2) / 1_000_000,
    });
    expect(formatUsd(0.014)).toBe('$0.0140');
    expect(formatUsd(0.00012)).toBe('$0.0001');
    // A turn's calls and its total in the same four decimals, so the sum reads as the sum (not "$0.029").
    expect([0.009, 0.0205, 0.009 + 0.0205].map(formatUsd)).toEqual(['$0.0090', '$0.0205', '$0.0295']);
    expect(formatUsd(0.00015)).toBe('$0.0002');
    expect(formatUsd(1.005)).toBe('$1.01');
    expect(formatUsd(0.99996)).toBe('$1.00');
    expect(formatUsd(12.3)).toBe('$12.30');
    expect(formatUsd(0.00002)).toBe('<$0.0001'); // A small call is not shown as free.
  });

  it('a dated model id takes its family’s price; the longest matching family wins', () => {
    expect(priceOf('claude-haiku-4-5-20251001', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['claude-haiku-4-5*']);
    const table = { 'claude-*': { input: 9, output: 9, cacheWrite: 9, cacheRead: 9 }, ...DEFAULT_PRICES };
    expect(priceOf('claude-opus-5', table)?.input).toBe(5);
    expect(priceOf('claude-opus-5', { ...table, 'claude-opus-5': { ...table['claude-*'], input: 7 } })?.input).toBe(7);
  });

  it('an unknown model has no price and says why; its tokens are still counted', () => {
    expect(costOf('claude-nova-9', usage, DEFAULT_PRICES)).toEqual({
      unpricedReason: "No price for claude-nova-9 in the app's price table, so only its tokens are shown.",
    });
  });

  it('ships the table as app-config defaults, and a deployer’s table replaces it', () => {
    expect(AppConfig.parse({}).defaults.prices).toEqual(DEFAULT_PRICES);
    const nova = { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 };
    const config = AppConfig.parse({ defaults: { prices: { 'claude-nova-9': nova } } });
    expect(costOf('claude-nova-9', usage, config.defaults.prices)).toEqual({
      usd: (1_000 * 1 + 500 * 2 + 2_000 * 1.25 + 10_000 * 0.1) / 1_000_000,
    });
    expect(
      AppConfig.safeParse({ defaults: { prices: { x: { input: -1, output: 1, cacheWrite: 1, cacheRead: 1 } } } })
        .success,
    ).toBe(false);
  });
});
