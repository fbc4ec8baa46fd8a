import type { ModelPort } from '../agent/model-port';
import { VaultLockedError } from '../domain/errors';
import { ModelError } from '../domain/model-errors';
import { resolveUsageLimits } from '../domain/usage-limits';
import type { UserPreferences } from '../domain/user-config';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';
import type { TurnRunnerDeps } from './turn-runner';
import { usageLimitProblem, withUsageLimits } from './usage-guard';

/**
 * The model on the person's key: `keyModel` as is (for the context window), `model` checked against the person's
 * spending limits before every call. Without a key (or with the vault locked) every call fails with a ModelError.
 */
export async function profileModel(
  deps: Pick<TurnRunnerDeps, 'storage' | 'profileId' | 'defaults' | 'createModel' | 'now'>,
  prefs: UserPreferences,
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
  const model = withUsageLimits(keyModel, () => usageLimitProblem(readUsage, deps.profileId, limits, deps.now()));
  return { keyModel, model };
}
