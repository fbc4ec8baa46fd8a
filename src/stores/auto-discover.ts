import type { DirectoryEntry, DirectoryRemote } from '../domain/directory-entry';
import { silentLogger } from '../domain/logger';
import type { ServerDirectory } from '../mcp/server-directory';
import { addServer, type ServerDeps } from './server-edit';
import { EMPTY_SERVER_FORM, type ServerForm } from './server-form';

/** Pages of the deployer's registry read at most per start (the registry's answers are capped per page too). */
export const AUTO_DISCOVER_MAX_PAGES = 5;

/** What one start's auto-discovery did: servers added, and entries left to the person with why. */
export interface AutoDiscoverReport {
  readonly added: readonly string[];
  readonly left: readonly { readonly name: string; readonly reason: string }[];
}

/**
 * The remote of an entry the app may add without asking: streamable HTTP or SSE (every remote the directory keeps
 * is) that declares no required or secret header. An entry needing a secret, or only a local package, is for the
 * person to add from "Find servers", where they can fill what it asks.
 */
export function autoAddableRemote(entry: DirectoryEntry): DirectoryRemote | undefined {
  return entry.remotes.find((remote) => remote.headers.every((h) => !h.isRequired && !h.isSecret));
}

/** The server form for an entry added without asking: its name, URL and transport, no auth. */
function formOf(entry: DirectoryEntry, remote: DirectoryRemote): ServerForm {
  return { ...EMPTY_SERVER_FORM, name: entry.title.slice(0, 60), url: remote.url, transport: remote.transport };
}

/**
 * `discovery.autoDiscover`: adds the servers the deployer lists in its registry to the profile, without asking. Each
 * entry is handled once per profile (remembered in `autoDiscovered`), so a server the person removes is never added
 * again, and one the person already has (same URL) is not added twice. Added servers carry `fromDirectory`.
 */
export async function autoDiscoverServers(
  deps: ServerDeps & { readonly directory: ServerDirectory; readonly connect: (id: string) => Promise<void> },
  signal: AbortSignal,
): Promise<AutoDiscoverReport> {
  const logger = deps.logger ?? silentLogger;
  const added: string[] = [];
  const left: { name: string; reason: string }[] = [];
  const profile = await deps.storage.profiles.get(deps.profileId);
  if (!profile) return { added, left };
  const handled = new Set(profile.autoDiscovered);
  const remember = (name: string) =>
    deps.storage.profiles.update(deps.profileId, (p) => ({
      ...p,
      autoDiscovered: [...new Set([...p.autoDiscovered, name])],
    }));
  let cursor: string | undefined;
  for (let page = 0; page < AUTO_DISCOVER_MAX_PAGES; page++) {
    const found = await deps.directory.search('', cursor, signal);
    for (const skipped of found.skipped) left.push(skipped);
    for (const entry of found.entries) {
      if (handled.has(entry.name)) continue;
      const remote = autoAddableRemote(entry);
      if (!remote) {
        const reason = entry.remotes.length
          ? 'it asks for a header or secret: add it from Find servers'
          : 'it needs a local process, which a browser cannot start';
        left.push({ name: entry.name, reason });
        continue;
      }
      handled.add(entry.name);
      if (deps.registry.list().some((s) => s.config.url === remote.url)) {
        await remember(entry.name); // The person has it already.
        continue;
      }
      const errors = await addServer(deps, formOf(entry, remote), deps.connect, { fromDirectory: entry.name });
      if (errors) {
        const reason = Object.values(errors).join('; ');
        logger.warn('Adding a server of the directory failed', { entry: entry.name, reason });
        left.push({ name: entry.name, reason });
        continue;
      }
      await remember(entry.name);
      added.push(entry.name);
    }
    cursor = found.nextCursor;
    if (!cursor) break;
  }
  return { added, left };
}
