import type { TokenTotals } from '../../../stores/token-totals';
import { formatCount } from './format';

/** Token usage in one line: input, output, cache read and cache write. */
export function TokenCounts({ totals }: { totals: TokenTotals }) {
  return (
    <span className="token-counts">
      <span>{formatCount(totals.input)} in</span>
      <span>{formatCount(totals.output)} out</span>
      <span>{formatCount(totals.cacheRead)} cache read</span>
      <span>{formatCount(totals.cacheWrite)} cache write</span>
    </span>
  );
}

/** The thread's running token total, for the chat header. */
export function ThreadTokenTotal({ totals }: { totals: TokenTotals }) {
  return (
    <p className="token-total" role="group" aria-label="Tokens used in this thread">
      <span className="token-label">Tokens</span>
      {totals.calls === 0 ? <span className="muted">none yet</span> : <TokenCounts totals={totals} />}
    </p>
  );
}
