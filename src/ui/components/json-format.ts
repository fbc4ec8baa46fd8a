export interface JsonLimits {
  /** Arrays and objects deeper than this show as `[… N items]` / `{… N keys}`. */
  readonly maxDepth: number;
  /** The text stops after about this many characters. */
  readonly maxChars: number;
}

export interface FormattedJson {
  readonly text: string;
  /** Something was left out (too deep or too long): more can be shown with larger limits. */
  readonly isCut: boolean;
}

/** Raised internally when the character budget is spent; never escapes formatJson. */
class BudgetSpent extends Error {}

/**
 * JSON.stringify(value, null, 2) within limits: it never descends past maxDepth (so it cannot exhaust the stack,
 * however deep the value) and stops once maxChars are written (so a small input cannot become megabytes of page).
 */
export function formatJson(value: unknown, limits: JsonLimits): FormattedJson {
  const parts: string[] = [];
  let length = 0;
  let isCut = false;
  const write = (piece: string) => {
    const room = limits.maxChars - length;
    if (piece.length > room) {
      parts.push(piece.slice(0, Math.max(0, room)), '…');
      isCut = true;
      throw new BudgetSpent();
    }
    parts.push(piece);
    length += piece.length;
  };
  const visit = (node: unknown, depth: number, indent: string) => {
    if (node === null || typeof node !== 'object') {
      write(scalar(node, limits.maxChars - length));
      return;
    }
    const isArray = Array.isArray(node);
    const keys = isArray ? undefined : Object.keys(node);
    const count = keys ? keys.length : (node as unknown[]).length;
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (count === 0) return write(open + close);
    if (depth >= limits.maxDepth) {
      isCut = true;
      const noun = isArray ? 'item' : 'key';
      return write(`${open}… ${count} ${noun}${count === 1 ? '' : 's'}${close}`);
    }
    const inner = indent + '  ';
    write(open);
    for (let i = 0; i < count; i++) {
      const key = keys?.[i];
      write(`${i === 0 ? '' : ','}\n${inner}${key === undefined ? '' : `${JSON.stringify(key)}: `}`);
      visit(key === undefined ? (node as unknown[])[i] : (node as Record<string, unknown>)[key], depth + 1, inner);
    }
    write(`\n${indent}${close}`);
  };
  try {
    visit(value, 0, '');
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
  }
  return { text: parts.join(''), isCut };
}

/** One scalar as JSON; a string longer than the room left is cut before it is quoted (no megabyte copies). */
function scalar(value: unknown, room: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > room ? value.slice(0, room + 1) : value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (value === null) return 'null';
  return typeof value === 'bigint' ? value.toString() : 'null'; // undefined, functions: as JSON.stringify in arrays
}
