import { ModelError } from './model-errors';
import { ThreadSpendLimitError, ThreadSpendUnpricedError, UsageLimitError } from './usage-limits';

/**
 * Whether a model call failed before anything was sent to the API (no key, a locked vault, a spending limit): no
 * model call happened, so none is traced or counted.
 */
export function isRefusedBeforeSending(error: unknown): boolean {
  if (error instanceof ModelError) return error.reason === 'no-key' || error.reason === 'locked';
  return (
    error instanceof UsageLimitError ||
    error instanceof ThreadSpendLimitError ||
    error instanceof ThreadSpendUnpricedError
  );
}
