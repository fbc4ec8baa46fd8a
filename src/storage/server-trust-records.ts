import { approvalsWithout, serverIdOfKey, serverOrigin, type ServerTrust } from '../domain/server-trust';
import type { WriteTx } from './records';

/**
 * Forgetting a server's trust in raw stored records (read inside a transaction, so not parsed yet): a removed server,
 * or one now at another origin, keeps no approval, no place in a thread and no default place.
 */
type RawRecord = Record<string, unknown>;

const isRecord = (value: unknown): value is RawRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutKeysOf(value: unknown, serverId: string): { next: unknown; changed: boolean } {
  if (!isRecord(value)) return { next: value, changed: false };
  const changed = Object.keys(value).some((key) => serverIdOfKey(key) === serverId);
  return { next: changed ? approvalsWithout(value, serverId) : value, changed };
}

/** The thread's sampling allowances without the server's (keyed by server id). */
function withoutSamplingOf(value: unknown, serverId: string): { next: unknown; changed: boolean } {
  if (!isRecord(value) || !(serverId in value)) return { next: value, changed: false };
  return { next: Object.fromEntries(Object.entries(value).filter(([id]) => id !== serverId)), changed: true };
}

/** The thread's apps' context without what the apps of `serverId` said. */
function withoutAppContextsOf(value: unknown, serverId: string): { next: unknown; changed: boolean } {
  if (!isRecord(value)) return { next: value, changed: false };
  const kept = Object.entries(value).filter(([, context]) => !isRecord(context) || context.serverId !== serverId);
  const changed = kept.length !== Object.keys(value).length;
  return { next: changed ? Object.fromEntries(kept) : value, changed };
}

function withoutServerIn(list: unknown, serverId: string, idOf: (item: unknown) => unknown) {
  if (!Array.isArray(list)) return { next: list, changed: false };
  const next = list.filter((item) => idOf(item) !== serverId);
  return { next, changed: next.length !== list.length };
}

const toolServerId = (item: unknown) => (isRecord(item) ? item.serverId : undefined);

export interface ForgetOptions {
  /** Also take the server out of threads (enablement, loaded and pinned tools) and out of the default set. */
  readonly dropPlaces: boolean;
  /** The server is removed: its id is retired with this origin, never to go to another one. */
  readonly retireAt?: string;
}

/** The profile without the server's "always" approvals (and its default place, when asked); undefined when unchanged. */
export function profileForgetting<P extends RawRecord>(
  profile: P,
  serverId: string,
  options: ForgetOptions,
): P | undefined {
  const approvals = withoutKeysOf(profile.alwaysAllow, serverId);
  const defaults = options.dropPlaces
    ? withoutServerIn(profile.defaultServerIds, serverId, (id) => id)
    : { next: profile.defaultServerIds, changed: false };
  const retired = isRecord(profile.retiredServerIds) ? profile.retiredServerIds : {};
  const retire = options.retireAt !== undefined && retired[serverId] !== options.retireAt;
  if (!approvals.changed && !defaults.changed && !retire) return undefined;
  return {
    ...profile,
    alwaysAllow: approvals.next,
    defaultServerIds: defaults.next,
    ...(retire ? { retiredServerIds: { ...retired, [serverId]: options.retireAt } } : {}),
  };
}

/** The thread without the server's approvals (and its enablement and tools, when asked); undefined when unchanged. */
export function threadForgetting<T extends RawRecord>(
  thread: T,
  serverId: string,
  options: ForgetOptions,
): T | undefined {
  const approvals = withoutKeysOf(thread.approvals, serverId);
  const sampling = withoutSamplingOf(thread.samplingAllowed, serverId);
  const contexts = withoutAppContextsOf(thread.appContexts, serverId);
  const none = (value: unknown) => ({ next: value, changed: false });
  const enabled = options.dropPlaces
    ? withoutServerIn(thread.enabledServerIds, serverId, (id) => id)
    : none(thread.enabledServerIds);
  const loaded = options.dropPlaces
    ? withoutServerIn(thread.loadedTools, serverId, toolServerId)
    : none(thread.loadedTools);
  const pinned = options.dropPlaces
    ? withoutServerIn(thread.pinnedTools, serverId, toolServerId)
    : none(thread.pinnedTools);
  if (![approvals, sampling, contexts, enabled, loaded, pinned].some((part) => part.changed)) return undefined;
  // updatedAt stays: forgetting a server is no activity in the thread, so the list keeps its order.
  return {
    ...thread,
    approvals: approvals.next,
    ...(sampling.changed ? { samplingAllowed: sampling.next } : {}),
    ...(contexts.changed ? { appContexts: contexts.next } : {}),
    enabledServerIds: enabled.next,
    loadedTools: loaded.next,
    pinnedTools: pinned.next,
  };
}

type TrustTx = WriteTx<('profiles' | 'threads' | 'servers' | 'catalog' | 'credentials')[]>;

/** Forgets a server's approvals (and places) in the profile and its threads; true when a thread changed. */
export async function forgetServer(
  tx: TrustTx,
  profileId: string,
  serverId: string,
  options: ForgetOptions,
): Promise<boolean> {
  const profile = await tx.objectStore('profiles').get(profileId);
  const nextProfile = profile && profileForgetting(profile, serverId, options);
  if (nextProfile) await tx.objectStore('profiles').put(nextProfile);
  let isThreadChanged = false;
  for (const thread of await tx.objectStore('threads').index('byProfile').getAll(profileId)) {
    const next = threadForgetting(thread, serverId, options);
    if (next) await tx.objectStore('threads').put(next);
    isThreadChanged ||= next !== undefined;
  }
  return isThreadChanged;
}

/** The identity of a stored (raw) server record. */
export function storedTrust(record: RawRecord): ServerTrust {
  const auth = record.auth as { kind?: unknown } | undefined;
  const kind = auth?.kind;
  return {
    origin: typeof record.url === 'string' ? serverOrigin(record.url) : '',
    authKind: kind === 'bearer' || kind === 'headers' || kind === 'oauth' ? kind : 'none',
  };
}

/** How a server's identity changed: another origin is another server; another auth kind voids its approvals. */
export function trustChange(before: ServerTrust, after: ServerTrust): ForgetOptions | undefined {
  if (before.origin !== after.origin) return { dropPlaces: true };
  if (before.authKind !== after.authKind) return { dropPlaces: false };
  return undefined;
}
