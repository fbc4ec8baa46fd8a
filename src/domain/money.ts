// Dollar amounts as the app writes them, without the price table's and limits' schemas (pricing.ts, usage-limits.ts), so
// that the first screen does not load zod.

/** Dollars for display: cents and up to two more digits for small amounts (a cost too small for those, "<$0.0001"). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.00005) return '<$0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(usd < 1 ? 3 : 2)}`;
}

/** Dollars in a limit message: cents, or two significant digits under a cent (a cap of $0.0005 reads so). */
export const dollars = (usd: number): string =>
  usd >= 0.01 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
