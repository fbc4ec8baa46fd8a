// One row per figure of `npm run bench`, and the table they make (terminal and Markdown).
import { percentile, round } from './metrics';

/** A budget is a ratio to the row's baseline, or an absolute ceiling where no same-run baseline says more. */
export type Budget = { readonly maxRatio: number } | { readonly max: number };

export interface Row {
  /** What is measured, e.g. "Bundle: first screen". */
  readonly figure: string;
  readonly unit: 'kB' | 'ms' | 'MB' | 'tokens';
  /** The app's median. */
  readonly app: number;
  /** The baseline's median in the same run, and what it is. */
  readonly baseline?: number;
  readonly baselineName: string;
  readonly budget?: Budget;
  /** Spread, repetitions or anything needed to read the row. */
  readonly note?: string;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
export const p95 = (values: readonly number[]): number => percentile(values, 95);

export function ratioOf(row: Row): number | undefined {
  return row.baseline ? row.app / row.baseline : undefined;
}

/** "ok", "OVER" (the budget is missed) or "-" when the row has no budget. */
export function verdict(row: Row): 'ok' | 'OVER' | '-' {
  if (!row.budget) return '-';
  if ('max' in row.budget) return row.app <= row.budget.max ? 'ok' : 'OVER';
  const ratio = ratioOf(row);
  return ratio !== undefined && ratio <= row.budget.maxRatio ? 'ok' : 'OVER';
}

const fmt = (value: number | undefined, unit: string): string => {
  if (value === undefined) return '-';
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
};
const budgetText = (row: Row): string =>
  !row.budget ? '-' : 'max' in row.budget ? `≤ ${fmt(row.budget.max, row.unit)}` : `≤ ${row.budget.maxRatio}x`;

const HEADER = ['figure', 'app (median)', 'baseline (median)', 'ratio', 'budget', 'status'];

function cells(row: Row): string[] {
  const ratio = ratioOf(row);
  return [
    row.figure,
    fmt(row.app, row.unit),
    row.baseline === undefined ? row.baselineName : `${fmt(row.baseline, row.unit)} ${row.baselineName}`,
    ratio === undefined ? '-' : `${round(ratio, 2).toFixed(2)}x`,
    budgetText(row),
    verdict(row),
  ];
}

/** A fixed-width table for the terminal; regressions read as OVER in the last column. */
export function textTable(rows: readonly Row[]): string {
  const table = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  const line = (values: readonly string[]) =>
    values.map((v, i) => (i === 0 || i === 2 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...table.slice(1).map(line)].join('\n');
}

/** The same table in Markdown, with each row's note below it. */
export function markdownTable(rows: readonly Row[]): string {
  const escape = (text: string) => text.replaceAll('|', '\\|');
  const out = [
    `| ${HEADER.join(' | ')} |`,
    `| ${HEADER.map((_, i) => (i === 0 || i === 2 ? '---' : '---:')).join(' | ')} |`,
  ];
  for (const row of rows) out.push(`| ${cells(row).map(escape).join(' | ')} |`);
  const notes = rows.filter((row) => row.note).map((row) => `- ${row.figure}: ${row.note}`);
  return [...out, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}
