// Dollar amounts as the app writes them, without the price table's and limits' schemas (pricing.ts, usage-limits.ts), so
// that the first screen does not load zod.

/**
 * Dollars for display: cents from $1 up, four decimals below (so a turn's calls and its total read alike and add up:
 * $0.0090 + $0.0205 = $0.0295), and "<$0.0001" for a cost too small for those. Rounded half up on the decimal amount,
 * not on its binary approximation (toFixed reads 0.0295 as 0.02949…).
 */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.00005) return '<$0.0001';
  const rounded = (digits: number) => Math.round(Number((usd * 10 ** digits).toPrecision(12))) / 10 ** digits;
  // The digits follow the rounded amount: $0.99996 is "$1.00", not "$1.0000".
  const small = rounded(4);
  return small < 1 ? `$${small.toFixed(4)}` : `$${rounded(2).toFixed(2)}`;
}

/** Dollars in a limit message: cents, or two significant digits under a cent (a cap of $0.0005 reads so). */
export const dollars = (usd: number): string =>
  usd >= 0.01 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
