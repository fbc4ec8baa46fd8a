import { describeError } from '../domain/errors';
import type { ServerDeps } from './server-edit';

/** What putting a newly added server on did, for the add confirmation. */
export interface FirstServerOutcome {
  /** The profile's servers on in new threads afterwards (unknown when the write failed). */
  readonly defaultIds?: readonly string[];
  /** The confirmation to show on the server, when it was put on (or why that failed). */
  readonly notice?: { readonly tone: 'error' | 'info'; readonly text: string };
}

/**
 * A server added while the profile has no servers on in new threads (and never had one removed) becomes on in new
 * threads, and on in the open thread when that thread has none on: the first server a person adds is useful without
 * switching it on.
 */
export async function putFirstServerOn(
  deps: ServerDeps,
  serverId: string,
  enableInOpenThread?: (serverId: string) => Promise<boolean>,
): Promise<FirstServerOutcome | undefined> {
  let isFirst = false;
  let defaultIds: readonly string[];
  try {
    const saved = await deps.storage.profiles.update(deps.profileId, (profile) => {
      // A profile that had a server removed is past its first: a server added again (perhaps under the removed
      // one's name, at another origin) must not step into the threads the old one was on in.
      isFirst = profile.defaultServerIds.length === 0 && Object.keys(profile.retiredServerIds).length === 0;
      return isFirst ? { ...profile, defaultServerIds: [serverId] } : profile;
    });
    defaultIds = saved.defaultServerIds;
  } catch (error) {
    return {
      notice: { tone: 'error', text: `Added, but it could not be put on in new threads: ${describeError(error)}` },
    };
  }
  if (!isFirst) return undefined;
  // The thread's own switch reports its failures (its write is undone and the reason shown there).
  const inThread = await (enableInOpenThread?.(serverId) ?? false);
  return {
    defaultIds,
    notice: {
      tone: 'info',
      text: inThread
        ? 'Added. As your first server it is on in new threads and in the open thread.'
        : 'Added. As your first server it is on in new threads.',
    },
  };
}
