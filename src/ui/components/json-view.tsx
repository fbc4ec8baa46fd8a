import { useMemo, useState } from 'react';
import { formatJson } from './json-format';

/** Each "Show more" adds this much depth and text; the first view shows one step. */
const DEPTH_STEP = 12;
const CHARS_STEP = 20_000;

/** Untrusted JSON (tool arguments) as indented text, bounded in depth and size, with Show more for the rest. */
export function JsonView({ value, className }: { value: unknown; className?: string }) {
  const [steps, setSteps] = useState(1);
  const { text, isCut } = useMemo(
    () => formatJson(value, { maxDepth: DEPTH_STEP * steps, maxChars: CHARS_STEP * steps }),
    [value, steps],
  );
  return (
    <>
      <pre className={className}>{text}</pre>
      {isCut && (
        <button type="button" className="secondary small show-more" onClick={() => setSteps(steps + 1)}>
          Show more
        </button>
      )}
    </>
  );
}

/** A short text of a JSON value for a fallback note: it never overflows the stack, however deep the value. */
export function jsonSummary(value: unknown): string {
  return formatJson(value, { maxDepth: 4, maxChars: 2000 }).text;
}
