// Limits as a person types them, read without a schema library, so that thread settings on the first screen do not
// load zod (Settings' full form is checked against the schema in usage-limits-actions.ts).
import { spendCapProblem } from '../domain/spend-cap';

// Digits, optionally grouped by commas as the fields' placeholders show them ("1,000,000"), and a decimal part.
const DECIMAL = /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$|^-?\.\d+$/;

/**
 * A number as a person types it in a form: plain decimal digits (commas between thousands allowed), else NaN. Not
 * JavaScript's Number(), which reads "0x10" as 16, "1e3" as 1,000 and "" as 0.
 */
export function typedDecimal(text: string): number {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed.replaceAll(',', '')) : Number.NaN;
}

/**
 * A limit as typed: blank is undefined (the default applies), 0 is null (no limit), else the number (a leading "$"
 * allowed); text that is no number stays NaN, so validation says why instead of dropping it.
 */
export function limitValue(text: string): number | null | undefined {
  const trimmed = text.trim().replace(/^\$\s*/, '');
  if (trimmed === '') return undefined;
  const number = typedDecimal(trimmed);
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

/** The most tools a turn preloads (as ToolSearchSettings' preloadCount allows). */
export const MAX_PRELOAD = 20;

/** A thread's preload count as typed: blank follows Settings; else a whole number from 0 to MAX_PRELOAD, or why not. */
export function parseThreadPreload(text: string): { readonly value: number | undefined } | { readonly error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: undefined };
  const number = typedDecimal(trimmed);
  return Number.isInteger(number) && number >= 0 && number <= MAX_PRELOAD
    ? { value: number }
    : { error: `Enter a whole number of tools from 0 to ${MAX_PRELOAD}, or leave it empty to follow Settings.` };
}
