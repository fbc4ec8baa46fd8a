import { logFailure, type Logger } from '../domain/logger';
import { catalogFromTools } from './catalog';
import type { RegistryDeps } from './registry';
import type { RegistryEntries } from './registry-entries';
import type { RegistryEvent } from './registry-types';
import type { ListedTools } from './tool-requests';

/** What taking in a server's tool list uses of the registry. */
export interface IntakeHost {
  readonly entries: RegistryEntries;
  readonly logger: Logger;
  readonly emit: (event: RegistryEvent) => void;
  readonly deps: Pick<RegistryDeps, 'profileId' | 'now' | 'sha256Hex' | 'yieldToPage' | 'catalogs'>;
}

/**
 * Takes in a server's tools/list answer: its catalog (named, checked, stored for offline search) replaces the one
 * before, unless the server was removed or a newer list came meanwhile. Its argument checks follow in steps.
 */
export async function takeInTools(
  { entries, logger, emit, deps }: IntakeHost,
  serverId: string,
  { tools, rejected }: ListedTools,
  instructions?: string,
): Promise<void> {
  const entry = entries.get(serverId);
  if (!entry) return;
  const intake = (entry.intakes = (entry.intakes ?? 0) + 1);
  const { profileId, now, sha256Hex, yieldToPage } = deps;
  const catalog = await catalogFromTools(
    profileId,
    serverId,
    tools,
    now(),
    sha256Hex,
    instructions,
    yieldToPage,
    rejected,
  );
  if (entries.get(serverId) !== entry || entry.intakes !== intake) return; // Removed, or a newer list came.
  entries.setCatalog(entry, catalog);
  // Offline search only; the live list is in memory.
  await deps.catalogs.set(catalog).catch(logFailure(logger, 'Storing a tool catalog failed', { serverId }));
  emit({ type: 'tools', serverId });
  // A large catalog's argument checks (and its tools' warnings) follow in steps; the connection does not wait.
  void entries
    .compileChecksInSteps(entry, yieldToPage)
    .then((isDone) => isDone && emit({ type: 'tools', serverId }))
    .catch(logFailure(logger, 'Compiling argument checks failed', { serverId }));
}
