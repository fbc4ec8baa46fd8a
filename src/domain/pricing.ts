import { z } from 'zod';
import type { Usage } from './trace';

export { formatUsd } from './money';

/** Dollars per million tokens of one model: fresh input, output, 5-minute cache writes and cache reads. */
export const ModelPrice = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

/** Prices by model id; a key ending in `*` prices every model id that starts with what comes before it. */
export const PriceTable = z.record(z.string().min(1), ModelPrice);
export type PriceTable = z.infer<typeof PriceTable>;

/**
 * Published Anthropic list prices in USD per million tokens, as the pricing page showed them on 2026-11-25
 * (https://platform.claude.com/docs/en/about-claude/pricing, "Model pricing": base input, 5m cache writes, cache hits
 * and refreshes, output). The deployer replaces or extends this table in app-config.json (`defaults.prices`).
 */
export const DEFAULT_PRICES: PriceTable = {
  'claude-opus-5*': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-opus-4-8*': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-opus-4-7*': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-opus-4-6*': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-opus-4-5*': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-sonnet-5*': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  'claude-sonnet-4-6*': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  'claude-sonnet-4-5*': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  'claude-haiku-4-5*': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
};

/** The price of a model: an exact key first, else the longest matching `prefix*` key; undefined when none. */
export function priceOf(model: string, table: PriceTable): ModelPrice | undefined {
  if (table[model]) return table[model];
  let best: { length: number; price: ModelPrice } | undefined;
  for (const [key, price] of Object.entries(table)) {
    if (!key.endsWith('*')) continue;
    const prefix = key.slice(0, -1);
    if (model.startsWith(prefix) && (!best || prefix.length > best.length)) best = { length: prefix.length, price };
  }
  return best?.price;
}

/** What one model call cost, or why it has no price (then only its tokens are shown). */
export type CallCost = { readonly usd: number } | { readonly unpricedReason: string };

/** The dollars of one call's usage at the model's price, or the reason there is none. */
export function costOf(model: string, usage: Usage, table: PriceTable): CallCost {
  const price = priceOf(model, table);
  if (!price)
    return { unpricedReason: `No price for ${model} in the app's price table, so only its tokens are shown.` };
  const usd =
    (usage.input * price.input +
      usage.output * price.output +
      usage.cacheWrite * price.cacheWrite +
      usage.cacheRead * price.cacheRead) /
    1_000_000;
  return { usd };
}

/** A call's cost as its trace entry keeps it. */
export const traceCost = (cost: CallCost): { costUsd: number } | { unpricedReason: string } =>
  'usd' in cost ? { costUsd: cost.usd } : { unpricedReason: cost.unpricedReason };
