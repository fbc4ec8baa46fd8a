import type { ModelPort } from '../agent/model-port';
import { describeError } from '../domain/errors';
import { ModelError } from '../domain/model-errors';
import { UserPreferences } from '../domain/user-config';
import type { Storage } from '../storage/storage';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';
import { isKeyElsewhere } from './settings';

/** What the Settings screen's Test found: the endpoint's models, or why it could not be used. */
export type ConnectionTest =
  { readonly ok: true; readonly models: readonly string[] } | { readonly ok: false; readonly message: string };

/**
 * Checks a base URL and key before they are saved: lists the endpoint's models with them (the key typed, else the
 * one stored). Never throws; every failure is a sentence saying what to fix.
 */
export async function testConnection(
  deps: { readonly storage: Storage; readonly profileId: string; readonly defaultBaseUrl: string },
  input: { readonly apiKey: string; readonly baseUrl: string },
  createModel: (apiKey: string, baseUrl: string) => ModelPort,
): Promise<ConnectionTest> {
  const baseUrl = input.baseUrl.trim();
  const url = UserPreferences.shape.baseUrl.safeParse(baseUrl);
  if (!url.success || !baseUrl) return { ok: false, message: 'Enter the base URL as an http(s) address first.' };
  let stored: string | undefined;
  try {
    stored = input.apiKey.trim()
      ? undefined
      : await deps.storage.vault.get({ profileId: deps.profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT });
  } catch (error) {
    // A locked or unreadable vault is said as such, never as "no key".
    return { ok: false, message: `The stored API key cannot be read: ${describeError(error)} Enter the key to test.` };
  }
  const apiKey = input.apiKey.trim() || stored;
  if (!apiKey) return { ok: false, message: 'Enter your API key first: the test lists the models it may use.' };
  if (stored && (await isKeyElsewhere(deps.storage, deps.profileId, baseUrl, deps.defaultBaseUrl)))
    return {
      ok: false,
      message: `Enter the API key to test ${url.data}: the saved key is only sent to the base URL's origin it was saved with.`,
    };
  try {
    const models = await createModel(apiKey, baseUrl).listModels();
    if (models.length === 0) return { ok: false, message: `${baseUrl} answered, but lists no models.` };
    return { ok: true, models };
  } catch (error) {
    return { ok: false, message: failureMessage(error, baseUrl) };
  }
}

function failureMessage(error: unknown, baseUrl: string): string {
  if (!(error instanceof ModelError)) return describeError(error);
  switch (error.reason) {
    case 'network':
      return `Nothing answered at ${baseUrl}: check the address and the port (and that the endpoint accepts requests from this page).`;
    case 'auth':
      return `${baseUrl} answered, but refused the API key (401). Check the key.`;
    case 'permission':
      return `${baseUrl} answered, but this key may not list models (403).`;
    case 'model-not-found': // Listing models names no model: a 404 here is a path the endpoint does not have.
      return `${baseUrl} answered, but has no model list there (404 not found): check the base URL's path.`;
    default:
      return `${baseUrl} answered with an error: ${error.message}`;
  }
}
