import type { AppConfig } from '../domain/app-config';
import { describeError } from '../domain/errors';
import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { ServerConfig } from '../domain/server-config';
import { trustOf } from '../domain/server-trust';
import type { UserConfig } from '../domain/user-config';
import type { Registry } from '../mcp/registry';
import type { ServerDirectory } from '../mcp/server-directory';
import type { Storage } from '../storage/storage';
import { autoDiscoverServers } from './auto-discover';
import type { ChatActions, ChatState, ChatStore } from './chat-store';
import { createDirectory } from './directory-store';
import type { ServerDeps } from './server-edit';

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

/**
 * Puts a server the person just added on in the open thread when that thread has none on yet (its first server);
 * resolves to whether it is on there now.
 */
export async function enableInOpenThread(
  chat: { readonly store: ChatStore; readonly actions: Pick<ChatActions, 'setThreadServers'> },
  serverId: string,
): Promise<boolean> {
  const { threads, activeThreadId } = chat.store.getState();
  const open = threads.find((t) => t.id === activeThreadId);
  if (!open || open.enabledServerIds.length > 0) return false;
  await chat.actions.setThreadServers(open.id, [serverId]);
  return (
    chat.store
      .getState()
      .threads.find((t) => t.id === open.id)
      ?.enabledServerIds.includes(serverId) ?? false
  );
}

/**
 * The open thread's servers (with none open, `newThreadIds`: those a new thread gets) connect now, so their status is
 * true from the first screen.
 */
export function connectStartServers(
  registry: Pick<Registry, 'get' | 'connect'>,
  { threads, activeThreadId }: Pick<ChatState, 'threads' | 'activeThreadId'>,
  newThreadIds: readonly string[],
): void {
  const openThread = threads.find((t) => t.id === activeThreadId);
  const startIds = openThread?.enabledServerIds ?? newThreadIds;
  for (const id of new Set(startIds)) if (registry.get(id)?.config.enabled) void registry.connect(id);
}

/**
 * The deployer's server registry, when discovery is on: the store behind "Find servers", and with autoDiscover its
 * servers joining the profile in the background, each once (until `signal` aborts: the profile is left).
 */
export function startDirectory(
  discovery: AppConfig['discovery'],
  createDirectoryClient: ((endpoint: string) => ServerDirectory) | undefined,
  signal: AbortSignal,
  deps: ServerDeps & { readonly connect: (id: string) => Promise<void> },
): ReturnType<typeof createDirectory> | undefined {
  const registryClient =
    discovery.enabled && discovery.endpoint && createDirectoryClient
      ? createDirectoryClient(discovery.endpoint)
      : undefined;
  const directory = registryClient ? createDirectory(registryClient) : undefined;
  if (registryClient && discovery.autoDiscover)
    void autoDiscoverServers({ ...deps, directory: registryClient }, signal).catch(
      logFailure(deps.logger ?? silentLogger, "Adding the directory's servers failed", {
        endpoint: discovery.endpoint,
      }),
    );
  return directory;
}
