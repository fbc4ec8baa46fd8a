import type { AppConfig } from '../domain/app-config';
import type { AppError } from '../domain/errors';
import { reportedElsewhere } from '../domain/logger';
import { OAUTH_CALLBACK_PATH } from '../platform/auth-window';
import { createRegistry } from '../mcp/registry';
import { createServerDirectory } from '../mcp/server-directory';
import { createStreamSlots } from '../mcp/stream-slots';
import { createBackgroundSlices, pacedYield } from '../platform/background-slices';
import { CHANGE_CHANNEL, createChangeBus } from '../platform/change-bus';
import { createTurnNewsChannel, TURN_NEWS_CHANNEL } from '../platform/turn-news';
import { CODE_SANDBOX_PATH, openCodeSandboxFrame } from '../platform/code-sandbox-frame';
import { openAppDatabase } from '../platform/database';
import { MCP_APP_PROXY_PATH, mountAppFrame } from '../platform/mcp-app-frame';
import type { PlatformEnv } from '../platform/environment';
import { mirrorTheme } from '../platform/theme-mirror';
import { createWebCipher } from '../platform/web-crypto';
import type { AppConfigRepo } from '../storage/app-config-repo';
import { APP_CONFIG_FILE, loadAppConfig, type AppConfigLoad } from '../storage/app-config-source';
import { createStorage } from '../storage/storage';
import type { AppServices } from '../stores/app-store';
import { createLazyAnthropicModel } from './lazy-model';
import { fetchWordVectors, WORD_VECTORS_FILE } from './word-vectors-source';

/** Wires the real adapters together: the one place that knows every implementation. */
export async function createServices(env: PlatformEnv, onStorageLost: (error: AppError) => void): Promise<AppServices> {
  const bus = createChangeBus(env.openChannel(CHANGE_CHANNEL));
  const cipher = createWebCipher(env.crypto);
  // The page's one background scheduler, made before storage: the message search and start-up's work share it.
  const slices = createBackgroundSlices();
  const storageReady = openAppDatabase(env.indexedDB, { onVersionChange: onStorageLost }).then((db) =>
    createStorage({ db, bus, cipher, now: env.now, newId: env.newId, logger: env.logger, slices }),
  );
  // app-config.json is fetched while the database opens (start-up waits for both); its copy is kept once storage is there.
  const configUrl = `${import.meta.env.BASE_URL}${APP_CONFIG_FILE}`;
  const laterCache: AppConfigRepo = {
    get: async () => (await storageReady).appConfig.get(),
    set: async (config) => (await storageReady).appConfig.set(config),
  };
  let firstConfigLoad: Promise<AppConfigLoad> | undefined = loadAppConfig(env.fetch, configUrl, laterCache, env.logger);
  firstConfigLoad.catch(reportedElsewhere); // If storage fails first, start-up reports that; this must not go unhandled.
  const storage = await storageReady;
  const sha256Hex = (text: string) => cipher.sha256Hex(text);
  // One set for every profile's registry: the browser's connection limit is per address, not per profile.
  const streamSlots = createStreamSlots(env.locks);
  return {
    storage,
    createModel: (apiKey, baseUrl) =>
      createLazyAnthropicModel({ apiKey, baseUrl, fetch: env.fetch, logger: env.logger }),
    sha256Hex,
    now: env.now,
    locks: env.locks,
    turnNews: createTurnNewsChannel(env.openChannel(TURN_NEWS_CHANNEL)),
    logger: env.logger,
    openCodeSandbox: (signal) =>
      openCodeSandboxFrame(document, `${import.meta.env.BASE_URL}${CODE_SANDBOX_PATH}`, signal),
    rememberTheme: (theme) => mirrorTheme(env.localStorage, theme),
    mountMcpApp: (container, options) =>
      mountAppFrame(container, {
        ...options,
        proxyUrl: `${import.meta.env.BASE_URL}${MCP_APP_PROXY_PATH}`,
        logger: env.logger,
      }),
    openExternal: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
    newId: env.newId,
    loadWordVectors: () => fetchWordVectors(env.fetch, `${import.meta.env.BASE_URL}${WORD_VECTORS_FILE}`),
    createDirectory: (endpoint) => createServerDirectory({ fetch: env.fetch, endpoint }),
    createRegistry: (profileId: string, oauth: AppConfig['oauth'], handlers = {}) =>
      createRegistry({
        ...handlers,
        profileId,
        appOrigin: env.origin,
        fetch: env.fetch,
        now: env.now,
        sha256Hex,
        secrets: storage.vault,
        catalogs: storage.catalog,
        logger: env.logger,
        yieldToPage: pacedYield(),
        streamSlots,
        oauth: {
          secrets: storage.vault,
          settings: {
            redirectUrl: `${env.origin}${import.meta.env.BASE_URL}${OAUTH_CALLBACK_PATH}`,
            clientName: 'MCP Agent',
            ...(oauth.clientMetadataUrl ? { clientMetadataUrl: oauth.clientMetadataUrl } : {}),
          },
          locks: env.locks,
          newState: () => env.newId(),
        },
      }),
    loadAppConfig: () => {
      const early = firstConfigLoad;
      firstConfigLoad = undefined;
      return early ?? loadAppConfig(env.fetch, configUrl, storage.appConfig, env.logger);
    },
  };
}
