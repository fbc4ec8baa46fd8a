import { formatUsd } from '../../../domain/money';
import { totalInput, type TokenTotals } from '../../../stores/token-totals';
import { formatCount } from './format';

/** Dollars of the calls, and how many have no price and why (those show tokens only). */
export function CostLabel({ totals }: { totals: TokenTotals }) {
  const priced = totals.calls - totals.unpriced;
  const why = totals.unpricedReason ?? 'Calls recorded before prices were kept have no cost.';
  return (
    <span className="cost">
      {priced > 0 && <strong>{formatUsd(totals.usd)}</strong>}
      {totals.unpriced > 0 && (
        <span className="muted" title={why}>
          {' '}
          {priced > 0 ? `+ ${totals.unpriced} unpriced` : 'no price'}
          <span className="cost-why">: {why}</span>
        </span>
      )}
    </span>
  );
}

/**
 * Token usage in one line: cost, all the input (with how much of it was new, read from the cache or written to it),
 * and output. The API counts fresh input apart from the cache: "0 in" with the cache doing the work would mislead.
 */
export function TokenCounts({ totals }: { totals: TokenTotals }) {
  const isCached = totals.cacheRead > 0 || totals.cacheWrite > 0;
  const cacheParts = `${formatCount(totals.input)} new, ${formatCount(totals.cacheRead)} cache read, ${formatCount(totals.cacheWrite)} cache write`;
  return (
    <span className="token-counts">
      <CostLabel totals={totals} />
      <span title={isCached ? cacheParts : undefined}>
        {formatCount(totalInput(totals))} in
        {isCached && <span className="token-cache-parts"> ({cacheParts})</span>}
      </span>
      <span>{formatCount(totals.output)} out</span>
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
