// Limits as a person types them, read without a schema library, so that thread settings on the first screen do not
// load zod (Settings' full form is checked against the schema in usage-limits-actions.ts).
import { spendCapProblem } from '../domain/spend-cap';

/**
 * A limit as typed: blank is undefined (the default applies), 0 is null (no limit), else the number (a leading "$"
 * allowed); text that is no number stays NaN, so validation says why instead of dropping it.
 */
export function limitValue(text: string): number | null | undefined {
  const trimmed = text.trim().replace(/^\$\s*/, '');
  if (trimmed === '') return undefined;
  const number = Number(trimmed);
  return number === 0 ? null : number;
}

/** A thread's spend cap as typed in its settings: blank follows Settings, 0 is no cap here; else why it is wrong. */
export function parseThreadSpendCap(
  text: string,
): { readonly value: number | null | undefined } | { readonly error: string } {
  const value = limitValue(text);
  if (value === undefined || value === null) return { value };
  const problem = spendCapProblem(value);
  return problem ? { error: problem } : { value };
}
