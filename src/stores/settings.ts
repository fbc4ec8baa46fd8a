import { CodeExecutionMode } from '../domain/code-execution';
import { z } from 'zod';
import type { ModelPort } from '../agent/model-port';
import type { AppConfig } from '../domain/app-config';
import { describeError } from '../domain/errors';
import { headerValueProblem } from '../domain/server-config';
import { serverOrigin } from '../domain/server-trust';
import {
  ToolSearchOverrides,
  resolveToolSearchSettings,
  type ToolSearchSettings,
} from '../domain/tool-search-settings';
import type { UserPreferences } from '../domain/user-config';
import { toFieldIssues } from '../domain/validation';
import type { Storage } from '../storage/storage';
import { typedDecimal } from './limit-input';
import { API_KEY_SLOT, MODEL_API_OWNER } from '../storage/vault';

export type Theme = UserPreferences['theme'];

export interface SettingsView {
  readonly hasApiKey: boolean;
  readonly baseUrl: string;
  readonly model: string;
  /** The tool-search settings in effect for this profile (app defaults with the profile's overrides). */
  readonly toolSearch: ToolSearchSettings;
  /** The deployer's tool-search defaults, shown next to the fields. */
  readonly toolSearchDefaults: ToolSearchSettings;
  /** Whether the profile overrides any tool-search default. */
  readonly hasToolSearchOverrides: boolean;
  readonly theme: Theme;
  /** Whether threads run the model's code (execute_code) unless a thread says otherwise. */
  readonly codeExecution: CodeExecutionMode;
}

/** Models offered when the API's list cannot be read (no key yet, offline, an endpoint without /v1/models). */
export const FALLBACK_MODELS = ['claude-sonnet-5', 'claude-opus-5', 'claude-haiku-4-5'];

/** The models the API lists for the stored key, or the fallback list. Never throws. */
export async function listModels(
  storage: Storage,
  profileId: string,
  baseUrl: string,
  createModel: (apiKey: string, baseUrl: string) => ModelPort,
): Promise<string[]> {
  try {
    const apiKey = await storage.vault.get({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT });
    if (!apiKey) return FALLBACK_MODELS;
    const models = await createModel(apiKey, baseUrl).listModels();
    return models.length > 0 ? models : FALLBACK_MODELS;
  } catch {
    return FALLBACK_MODELS;
  }
}

/** The tool-search fields as the form holds them: numbers as typed, checked here. */
export interface ToolSearchInput {
  readonly mode: string;
  readonly strategy: string;
  readonly deferral: string;
  readonly preloadCount: string;
  readonly loadedToolCap: string;
}

/** Shown next to the API key field when Save is pressed with no key typed and none stored. */
export const MISSING_API_KEY = 'Enter your Anthropic API key: chatting needs one.';
export const KEY_ELSEWHERE =
  'API key must be entered again: the base URL now points at another origin, and the saved key is only sent where it was given';

/** Whether `baseUrl` is at another origin than the one the stored key was saved with (the profile's, else the app's). */
export async function isKeyElsewhere(
  storage: Storage,
  profileId: string,
  baseUrl: string,
  defaultBaseUrl: string,
): Promise<boolean> {
  const saved = (await storage.profiles.get(profileId))?.preferences.baseUrl ?? defaultBaseUrl;
  return serverOrigin(baseUrl) !== serverOrigin(saved);
}

export interface SettingsInput {
  /** A new key; empty keeps the stored one. */
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly model: string;
  /** Absent: the profile's tool-search overrides stay as they are. */
  readonly toolSearch?: ToolSearchInput;
  /** Absent: the profile's code setting stays as it is. */
  readonly codeExecution?: string;
}

/** A typed number, or NaN for anything that is not one (so the range check reports it). */
const typedNumber = z.string().transform(typedDecimal);

const Input = z.object({
  // Checked as a header value: fetch refuses anything else, and the failed call would not say why.
  apiKey: z
    .string()
    .trim()
    .max(500, 'API key is too long')
    .superRefine((key, ctx) => {
      const problem = headerValueProblem(key);
      if (problem) ctx.addIssue({ code: 'custom', message: `API key ${problem}` });
    }),
  baseUrl: z.url({ protocol: /^https?$/, error: 'Base URL must be an http(s) URL' }),
  model: z.string().trim().min(1, 'Choose a model').max(100),
  toolSearch: z
    .object({
      mode: ToolSearchOverrides.shape.mode.unwrap(),
      strategy: ToolSearchOverrides.shape.strategy.unwrap(),
      deferral: ToolSearchOverrides.shape.deferral.unwrap(),
      preloadCount: typedNumber.pipe(ToolSearchOverrides.shape.preloadCount.unwrap()),
      loadedToolCap: typedNumber.pipe(ToolSearchOverrides.shape.loadedToolCap.unwrap()),
    })
    .optional(),
  codeExecution: CodeExecutionMode.optional(),
});

/** The profile's model and tool-search settings, with the app's defaults filled in; the key itself is never read back. */
export async function loadSettings(
  storage: Storage,
  profileId: string,
  defaults: AppConfig['defaults'],
): Promise<SettingsView> {
  const [profile, hasApiKey] = await Promise.all([
    storage.profiles.get(profileId),
    storage.vault.has({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }),
  ]);
  const overrides = profile?.preferences.toolSearch ?? {};
  return {
    hasApiKey,
    baseUrl: profile?.preferences.baseUrl ?? defaults.baseUrl,
    model: profile?.preferences.model ?? defaults.model,
    toolSearch: resolveToolSearchSettings(defaults.toolSearch, overrides),
    toolSearchDefaults: defaults.toolSearch,
    hasToolSearchOverrides: Object.values(overrides).some((value) => value !== undefined),
    theme: profile?.preferences.theme ?? 'system',
    codeExecution: profile?.preferences.codeExecution ?? defaults.enableProgrammaticCalling,
  };
}

/**
 * Saves the settings; returns field errors ("baseUrl", "toolSearch.preloadCount" → message) instead of throwing,
 * and saves nothing while any field is wrong. The key goes to the vault only. A tool-search field equal to the
 * app's default (`toolSearchDefaults`) is not stored, so it keeps following the default when the deployer changes it.
 */
export async function saveSettings(
  storage: Storage,
  profileId: string,
  input: SettingsInput,
  defaults: Pick<AppConfig['defaults'], 'toolSearch' | 'baseUrl'>,
): Promise<Record<string, string>> {
  const toolSearchDefaults = defaults.toolSearch;
  // A number field left blank follows the app's default, as its hint says.
  const typed = input.toolSearch;
  const parsed = Input.safeParse(
    typed
      ? {
          ...input,
          toolSearch: {
            ...typed,
            preloadCount: typed.preloadCount.trim() || String(toolSearchDefaults.preloadCount),
            loadedToolCap: typed.loadedToolCap.trim() || String(toolSearchDefaults.loadedToolCap),
          },
        }
      : input,
  );
  const errors: Record<string, string> = parsed.success
    ? {}
    : Object.fromEntries(toFieldIssues(parsed.error).map((issue) => [issue.path, issue.message]));
  // An empty key keeps the stored one; with none stored, a Save would leave a profile that cannot chat. Nor does it
  // follow the base URL to another origin: the key goes only where it was given (as an imported base URL is refused).
  if (!errors.apiKey && input.apiKey.trim() === '') {
    const hasKey = await storage.vault.has({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT });
    if (!hasKey) errors.apiKey = MISSING_API_KEY;
    else if (!errors.baseUrl && (await isKeyElsewhere(storage, profileId, input.baseUrl, defaults.baseUrl)))
      errors.apiKey = KEY_ELSEWHERE;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return errors;
  const { apiKey, baseUrl, model, toolSearch, codeExecution } = parsed.data;
  const overrides =
    toolSearch &&
    Object.fromEntries(
      Object.entries(toolSearch).filter(
        ([key, value]) => toolSearchDefaults[key as keyof ToolSearchSettings] !== value,
      ),
    );
  try {
    if (apiKey) await storage.vault.put({ profileId, owner: MODEL_API_OWNER, slot: API_KEY_SLOT }, apiKey);
    await storage.profiles.update(profileId, (p) => ({
      ...p,
      preferences: {
        ...p.preferences,
        baseUrl,
        model,
        ...(overrides ? { toolSearch: overrides } : {}),
        ...(codeExecution ? { codeExecution } : {}),
      },
    }));
    return {};
  } catch (error) {
    return { form: describeError(error) };
  }
}

/** Drops the profile's tool-search overrides: the app's defaults apply again. Resolves to an error message, or undefined. */
export async function resetToolSearch(storage: Storage, profileId: string): Promise<string | undefined> {
  try {
    await storage.profiles.update(profileId, (p) => ({ ...p, preferences: { ...p.preferences, toolSearch: {} } }));
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}
