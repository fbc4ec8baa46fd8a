import type { AppConfig } from '../domain/app-config';
import type { AppError } from '../domain/errors';
import { OAUTH_CALLBACK_PATH } from '../platform/auth-window';
import { createRegistry } from '../mcp/registry';
import { createChangeBus } from '../platform/change-bus';
import { openAppDatabase } from '../platform/database';
import type { PlatformEnv } from '../platform/environment';
import { createWebCipher } from '../platform/web-crypto';
import { APP_CONFIG_FILE, loadAppConfig } from '../storage/app-config-source';
import { createStorage } from '../storage/storage';
import type { AppServices } from '../stores/app-store';
import { createLazyAnthropicModel } from './lazy-model';

const CHANGE_CHANNEL = 'mcp-agent-changes';

/** Wires the real adapters together: the one place that knows every implementation. */
export async function createServices(env: PlatformEnv, onStorageLost: (error: AppError) => void): Promise<AppServices> {
  const db = await openAppDatabase(env.indexedDB, { onVersionChange: onStorageLost });
  const bus = createChangeBus(env.openChannel(CHANGE_CHANNEL));
  const cipher = createWebCipher(env.crypto);
  const storage = createStorage({ db, bus, cipher, now: env.now, newId: env.newId });
  const sha256Hex = (text: string) => cipher.sha256Hex(text);
  return {
    storage,
    createModel: (apiKey, baseUrl) => createLazyAnthropicModel({ apiKey, baseUrl, fetch: env.fetch }),
    sha256Hex,
    now: env.now,
    locks: env.locks,
    createRegistry: (profileId: string, oauth: AppConfig['oauth']) =>
      createRegistry({
        profileId,
        appOrigin: env.origin,
        fetch: env.fetch,
        now: env.now,
        sha256Hex,
        secrets: storage.vault,
        catalogs: storage.catalog,
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
    loadAppConfig: () => loadAppConfig(env.fetch, `${import.meta.env.BASE_URL}${APP_CONFIG_FILE}`, storage.appConfig),
  };
}
