import { logFailure, silentLogger, type Logger } from '../domain/logger';
import type { ServerConfig } from '../domain/server-config';
import type { Registry } from '../mcp/registry';
import type { BackgroundSlices } from '../platform/background-slices';
import type { Storage } from '../storage/storage';

export interface ServerSyncDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly profileId: string;
  /** Where failures the actions go on past are reported (silent when omitted). */
  readonly logger?: Logger;
  /**
   * When this page may take in a server another tab added: in the page, once the person pauses typing (reading,
   * checking and naming the stored tools of 20 large servers holds the page for some hundreds of ms), or at once
   * while `settled` hurries it; each step of taking in its stored tools waits for it again, so a registration begun
   * in a pause does not run on into the keys after it. At once when omitted.
   */
  readonly pauses?: Pick<BackgroundSlices, 'idle' | 'hurry'>;
}

/** Stops following when called; `settled` hurries the held changes in and resolves once every one seen is applied. */
export interface ServerFollow {
  (): void;
  readonly settled: () => Promise<void>;
}

/**
 * Keeps this tab's registry in step with the profile's servers when another tab adds, changes or removes one,
 * or changes the person's tool switches of an app server (kept in the profile), so both tabs show and offer the
 * same without a reload. Returns a function that stops following.
 */
export function followServerChanges(deps: ServerSyncDeps): ServerFollow {
  let queue: Promise<void> = Promise.resolve();
  const log = deps.logger ?? silentLogger;
  let isStopped = false;
  /**
   * Servers of other tabs being taken in, by id: each waits for the person's pauses (before and while its stored tools
   * are read), off the queue, so that the changes queued behind it do not wait for a pause too.
   */
  const arriving = new Map<string, Promise<void>>();
  const sync = (key: string | undefined) => {
    if (isStopped) return;
    queue = queue
      .then(() => syncUserServers(deps, key))
      .catch(logFailure(log, 'Following a server change failed', { key }));
  };
  const takeIn = (key: string, pauses: NonNullable<ServerSyncDeps['pauses']>) => {
    const arrival = pauses
      .idle()
      .then(() => (isStopped ? undefined : registerStored(deps, key, () => pauses.idle())))
      .catch(logFailure(log, 'Registering a server from another tab failed', { serverId: key }))
      // A change or removal stored meanwhile was left to this: the queue brings the server up to date.
      .then(() => sync(key))
      .finally(() => arriving.delete(key));
    arriving.set(key, arrival);
  };
  const unsubscribe = deps.storage.changes.subscribe((change) => {
    if (change.profileId !== deps.profileId) return;
    // One sync at a time, in order: each reads what is stored now. Only the server the change names is touched:
    // one this tab is adding (registered, not stored yet) must not be dropped, with its secret, by another's change.
    const { key } = change;
    if (change.store === 'servers' && change.isRemote) {
      // A server this page does not have yet is taken in in the person's pauses (reading its stored tools is the
      // costly part); a change or removal of one it has applies at once: a turn must not call what was switched off.
      if (deps.pauses && key !== undefined && !deps.registry.get(key)) {
        if (!isStopped && !arriving.has(key)) takeIn(key, deps.pauses);
      } else sync(key);
    }
    // This tab's own profile writes too: a read of another tab's change that finished after this tab's write
    // must not be the last word.
    else if (change.store === 'profiles')
      queue = queue.then(() => syncAppToolOverrides(deps)).catch(logFailure(log, 'Following tool switches failed'));
  });
  const stop = () => {
    isStopped = true;
    unsubscribe();
  };
  return Object.assign(stop, {
    async settled() {
      const release = deps.pauses?.hurry();
      try {
        while (arriving.size > 0) await Promise.all(arriving.values());
        await queue;
      } finally {
        release?.();
      }
    },
  });
}

/** Applies the profile's stored tool overrides for app servers (a deleted profile leaves the registry as it is). */
export async function syncAppToolOverrides({ storage, registry, profileId }: ServerSyncDeps): Promise<void> {
  const profile = await storage.profiles.get(profileId);
  if (profile) registry.setAppToolOverrides(profile.appServerToolOverrides);
}

/**
 * Registers stored servers this registry lacks, updates changed ones, and drops user servers no longer stored;
 * only the server `serverId` when given.
 */
export async function syncUserServers(
  { storage, registry, profileId, logger = silentLogger }: ServerSyncDeps,
  serverId?: string,
): Promise<void> {
  const isSubject = (id: string) => serverId === undefined || id === serverId;
  const items = (await storage.profiles.listServers(profileId)).items.filter((server) => isSubject(server.id));
  const stored = new Map(items.map((server) => [server.id, server]));
  for (const server of registry.list()) {
    if (server.scope !== 'user' || !isSubject(server.config.id)) continue;
    const next = stored.get(server.config.id);
    // The other tab already deleted its catalog and credentials; this only forgets the server here.
    if (!next) await registry.unregister(server.config.id);
    else if (!sameConfig(next, server.config)) await registry.update(next);
  }
  for (const server of items)
    if (!registry.get(server.id))
      await registry
        .register(server, 'user')
        .catch(logFailure(logger, 'Registering a server from another tab failed', { serverId: server.id }));
}

/** Registers the stored server `serverId` unless it is gone or here already, its stored tools taken in when idle. */
async function registerStored(
  { storage, registry, profileId }: ServerSyncDeps,
  serverId: string,
  whenIdle: () => Promise<void>,
): Promise<void> {
  const server = (await storage.profiles.listServers(profileId)).items.find((s) => s.id === serverId);
  if (server && !registry.get(serverId)) await registry.register(server, 'user', { whenIdle });
}

function sameConfig(a: ServerConfig, b: ServerConfig): boolean {
  return stableJson(a) === stableJson(b);
}

/** JSON with object keys sorted, so that two equal configs compare equal whatever order their fields came in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
