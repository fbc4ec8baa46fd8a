import type { ModelPort } from '../agent/model-port';
import { VaultLockedError } from '../domain/errors';
import { ModelError } from '../domain/model-errors';
import { priceOf } from '../domain/pricing';
import { resolveUsageLimits, threadSpendCap } from '../domain/usage-limits';
import type { UserPreferences } from '../domain/user-config';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';
import type { TurnRunnerDeps } from './turn-runner';
import {
  mergeLimitChecks,
  threadSpendLimitCheck,
  usageLimitCheck,
  withUsageLimits,
  type ReadThread,
} from './usage-guard';

/** The thread a model call is made for: its own spend cap (null: none; undefined: the profile's) and its calls. */
export interface ThreadSpend {
  readonly maxCostUsd: number | null | undefined;
  /** Every stored message of the thread, on every branch (each call was paid for). */
  readonly readThread: ReadThread;
}

/**
 * The model on the person's key: `keyModel` as is (for the context window), `model` checked against the person's
 * spending limits (and the thread's spend cap, when given) before every call. Without a key (or with the vault
 * locked) every call fails with a ModelError.
 */
export async function profileModel(
  deps: Pick<TurnRunnerDeps, 'storage' | 'profileId' | 'defaults' | 'createModel' | 'now'>,
  prefs: UserPreferences,
  thread?: ThreadSpend,
): Promise<{ keyModel: ModelPort; model: ModelPort }> {
  const apiKey = await deps.storage.vault
    .get({ profileId: deps.profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT })
    .catch((error: unknown) => (error instanceof VaultLockedError ? error : undefined));
  const limits = resolveUsageLimits(deps.defaults.limits, prefs.limits);
  const readUsage = (id: string, since: number) => deps.storage.usage.since(id, since);
  const keyModel: ModelPort =
    typeof apiKey === 'string'
      ? deps.createModel(apiKey, prefs.baseUrl ?? deps.defaults.baseUrl)
      : {
          stream: () => Promise.reject(new ModelError(apiKey ? 'locked' : 'no-key')),
          listModels: () => Promise.resolve([]),
        };
  const spendCap = thread ? threadSpendCap(limits, thread.maxCostUsd) : undefined;
  const prices = deps.defaults.prices;
  const model = withUsageLimits(keyModel, async (modelId) => {
    const usage = await usageLimitCheck(readUsage, deps.profileId, limits, deps.now());
    // A call stopped by the hourly or daily limit need not read the thread.
    if (usage.problem || !thread) return usage;
    const unpriced = prices && !priceOf(modelId, prices) ? modelId : undefined;
    return mergeLimitChecks(usage, await threadSpendLimitCheck(thread.readThread, spendCap, unpriced));
  });
  return { keyModel, model };
}
