// A thread's spend cap in dollars, checked without a schema library, so that thread settings on the first screen do not
// load zod; usage-limits.ts builds its schema on the same check.

/** What is wrong with a spend cap: it must be a finite number of dollars, more than $0, at most $100,000. */
export function spendCapProblem(usd: number): string | undefined {
  if (!Number.isFinite(usd)) return 'Spend per thread must be a number of dollars';
  if (usd <= 0) return 'Spend per thread must be more than $0 (0 means no cap)';
  if (usd > 100_000) return 'Spend per thread must be at most $100,000';
  return undefined;
}
