import type { AnthropicModelOptions } from '../agent/anthropic-model';
import type { ModelPort } from '../agent/model-port';
import { ModelError } from '../domain/model-errors';

/**
 * The Anthropic model, with the SDK (the largest part of the bundle) loaded on the first call instead of at
 * start-up: the first screen does not need it. Same contract as createAnthropicModel.
 */
export function createLazyAnthropicModel(options: AnthropicModelOptions): ModelPort {
  if (!options.apiKey) throw new ModelError('no-key');
  let loaded: Promise<ModelPort> | undefined;
  const model = (): Promise<ModelPort> => {
    loaded ??= import('../agent/anthropic-model').then(
      (module) => module.createAnthropicModel(options),
      (error: unknown) => {
        loaded = undefined; // A chunk that failed to load (offline, a redeploy) is tried again on the next call.
        throw new ModelError(
          'network',
          `the model client could not be loaded: ${error instanceof Error ? error.message : String(error)}`.slice(
            0,
            200,
          ),
        );
      },
    );
    return loaded;
  };
  return {
    stream: async (request, onSnapshot, signal, onRetry) =>
      (await model()).stream(request, onSnapshot, signal, onRetry),
    listModels: async () => (await model()).listModels(),
    contextWindow: async (id) => (await model()).contextWindow?.(id),
  };
}
