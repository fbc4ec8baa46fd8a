import type { AppConfig } from '../domain/app-config';
import { describeError } from '../domain/errors';
import { logFailure, type Logger } from '../domain/logger';
import type { ServerConfig } from '../domain/server-config';
import { trustOf } from '../domain/server-trust';
import type { UserConfig } from '../domain/user-config';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';

/**
 * Brings the active profile up to date with the app config before anything reads it: the API key moves to the app's
 * owner, the deployer's servers that moved or are gone lose their trust, and the app servers the deployer puts on in
 * new threads, met by this profile for the first time, join its default set. Each step's failure is logged, never
 * thrown. Resolves to those newly met servers (a new thread gets them even if storing them failed).
 */
export async function prepareProfile(
  storage: Storage,
  config: AppConfig,
  profile: UserConfig,
  logger: Logger,
): Promise<string[]> {
  // Before anything reads the API key: it moves out of the owner a server named "Anthropic" would get.
  await storage.vault
    .migrateAppOwners(profile.id)
    .catch(logFailure(logger, 'Moving the API key to the app owner failed', { profileId: profile.id }));
  const newThreadServers = config.defaults.threadServerIds.filter(
    (id) => !(id in profile.appServerTrust) && config.servers.some((s) => s.id === id),
  );
  // A deployer's server that moved to another origin, or is gone, keeps no trust and no place in threads.
  await storage.profiles
    .reconcileAppServers(
      profile.id,
      config.servers.map((server) => ({ id: server.id, trust: trustOf(server) })),
    )
    .catch(logFailure(logger, "Reconciling the app's servers failed", { profileId: profile.id }));
  if (newThreadServers.length > 0)
    await storage.profiles
      .update(profile.id, (p) => ({
        ...p,
        defaultServerIds: [...new Set([...p.defaultServerIds, ...newThreadServers])],
      }))
      .catch(logFailure(logger, 'Putting the app servers on for new threads failed', { profileId: profile.id }));
  return newThreadServers;
}

/** Registers the app's and the user's servers; one bad server does not keep the others out. Resolves to the problems. */
export async function registerServers(
  registry: Registry,
  appServers: readonly ServerConfig[],
  storage: Storage,
  profileId: string,
): Promise<string[]> {
  const userServers = await storage.profiles.listServers(profileId);
  // Started in order, so that on a name clash the first one wins as before; their stored catalogs load together.
  const register = (server: ServerConfig, scope: 'app' | 'user') =>
    registry.register(server, scope).then(
      () => undefined,
      (error: unknown) => `${server.name}: ${describeError(error)}`,
    );
  const results = await Promise.all([
    ...appServers.map((server) => register(server, 'app')),
    ...userServers.items.map((server) => register(server, 'user')),
  ]);
  return [
    ...results.filter((problem): problem is string => problem !== undefined),
    ...userServers.skipped.map((error) => error.message),
  ];
}
