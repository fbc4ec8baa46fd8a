import { AppConfig, EMPTY_APP_CONFIG } from '../domain/app-config';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import { ValidationError } from '../domain/errors';
import { toFieldIssues } from '../domain/validation';
import type { AppConfigRepo } from './app-config-repo';

export const APP_CONFIG_FILE = 'app-config.json';

/** The app config in force and where it came from; `error` is shown to the person when the file is bad. */
export interface AppConfigLoad {
  readonly config: AppConfig;
  readonly source: 'file' | 'cache' | 'none';
  readonly error?: ValidationError;
  /** Set when the file could not be fetched and the cached copy is used. */
  readonly notice?: string;
}

/**
 * Fetches and validates the deployer's app-config.json. An invalid file is reported and ignored (the app
 * runs without app servers); an unreachable one falls back to the last good copy.
 */
export async function loadAppConfig(
  fetchFn: typeof fetch,
  url: string,
  cache: AppConfigRepo,
  logger: Logger = silentLogger,
): Promise<AppConfigLoad> {
  let response: Response;
  try {
    response = await fetchFn(url, { cache: 'no-cache', headers: { accept: 'application/json' } });
  } catch {
    return fromCache(cache, `${APP_CONFIG_FILE} could not be fetched (offline?)`, logger);
  }
  if (response.status === 404) return { config: EMPTY_APP_CONFIG, source: 'none' };
  if (!response.ok)
    return fromCache(cache, `${APP_CONFIG_FILE} could not be fetched (HTTP ${response.status})`, logger);
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : 'parse error';
    return invalid([{ path: '', message: `is not valid JSON (${detail})` }]);
  }
  const parsed = AppConfig.safeParse(json);
  if (!parsed.success) return invalid(toFieldIssues(parsed.error));
  // The offline copy is written in the background: start-up does not wait for a write (its transaction starts now).
  cache.set(parsed.data).catch(logFailure(logger, `Keeping the offline copy of ${APP_CONFIG_FILE} failed`));
  return { config: parsed.data, source: 'file' };
}

function invalid(issues: ValidationError['issues']): AppConfigLoad {
  return { config: EMPTY_APP_CONFIG, source: 'none', error: new ValidationError(APP_CONFIG_FILE, issues) };
}

async function fromCache(cache: AppConfigRepo, why: string, logger: Logger): Promise<AppConfigLoad> {
  const cached = await cache.get().catch(logFailure(logger, `Reading the offline copy of ${APP_CONFIG_FILE} failed`));
  return cached
    ? { config: cached, source: 'cache', notice: `${why}; using the last loaded copy.` }
    : { config: EMPTY_APP_CONFIG, source: 'none', notice: `${why}; running without app servers.` };
}
