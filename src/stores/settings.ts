import { z } from 'zod';
import type { ModelPort } from '../agent/model-port';
import type { AppConfig } from '../domain/app-config';
import { describeError } from '../domain/errors';
import { toFieldIssues } from '../domain/validation';
import type { Storage } from '../storage/storage';
import { MODEL_API_OWNER } from '../storage/vault';
import { API_KEY_SLOT } from './turn-runner';

export interface SettingsView {
  readonly hasApiKey: boolean;
  readonly baseUrl: string;
  readonly model: string;
}

/** Models offered when the API's list cannot be read (no key yet, offline, an endpoint without /v1/models). */
export const FALLBACK_MODELS = ['claude-sonnet-5', 'claude-opus-5', 'claude-haiku-4-5'];

/** The models the API lists for the stored key, or the fallback list. Never throws. */
export async function listModels(storage: Storage, profileId: string, baseUrl: string, createModel: (apiKey: string, baseUrl: string) => ModelPort): Promise<string[]> {
  try {
    const apiKey = await storage.vault.get({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT });
    if (!apiKey) return FALLBACK_MODELS;
    const models = await createModel(apiKey, baseUrl).listModels();
    return models.length > 0 ? models : FALLBACK_MODELS;
  } catch {
    return FALLBACK_MODELS;
  }
}

export interface SettingsInput {
  /** A new key; empty keeps the stored one. */
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly model: string;
}

const Input = z.object({
  apiKey: z.string().trim().max(500, 'API key is too long'),
  baseUrl: z.url({ protocol: /^https?$/, error: 'Base URL must be an http(s) URL' }),
  model: z.string().trim().min(1, 'Choose a model').max(100),
});

/** The profile's model settings, with the app's defaults filled in; the key itself is never read back. */
export async function loadSettings(storage: Storage, profileId: string, defaults: AppConfig['defaults']): Promise<SettingsView> {
  const [profile, hasApiKey] = await Promise.all([storage.profiles.get(profileId), storage.vault.has({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT })]);
  return { hasApiKey, baseUrl: profile?.preferences.baseUrl ?? defaults.baseUrl, model: profile?.preferences.model ?? defaults.model };
}

/** Saves the settings; returns field errors ("baseUrl" → message) instead of throwing. The key goes to the vault only. */
export async function saveSettings(storage: Storage, profileId: string, input: SettingsInput): Promise<Record<string, string>> {
  const parsed = Input.safeParse(input);
  if (!parsed.success) return Object.fromEntries(toFieldIssues(parsed.error).map((issue) => [issue.path, issue.message]));
  try {
    if (parsed.data.apiKey) await storage.vault.put({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, parsed.data.apiKey);
    await storage.profiles.update(profileId, (p) => ({ ...p, preferences: { ...p.preferences, baseUrl: parsed.data.baseUrl, model: parsed.data.model } }));
    return {};
  } catch (error) {
    return { form: describeError(error) };
  }
}
