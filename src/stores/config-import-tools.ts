// An import's tool switches and descriptions for the app's servers: set tool by tool over the person's, reported.
import type { ImportProblem } from '../domain/config-import';
import type { ToolOverride } from '../domain/server-config';
import {
  normalizedOverride,
  ownEntry,
  withServerOverrides,
  withToolOverride,
  type AppServerToolOverrides,
  type PersonalToolOverrides,
} from '../domain/tool-overrides';
import type { ConfigTransferDeps } from './config-transfer';

/**
 * Sets the file's tool switches and descriptions for the app's servers here (by server id, tool by tool over the
 * stored ones, in one write) and applies them. An id that is no app server here, or a tool its known list lacks,
 * is reported and skipped.
 */
export async function applyAppToolOverrides(
  deps: ConfigTransferDeps,
  offered: AppServerToolOverrides,
  imported: string[],
  rejected: ImportProblem[],
): Promise<void> {
  const accepted: [string, string, PersonalToolOverrides][] = [];
  for (const [serverId, tools] of Object.entries(offered)) {
    const subject = `Tool settings for app server "${serverId}"`;
    const here = deps.registry.get(serverId);
    if (!here) {
      rejected.push({ subject, reasons: ['no server the app provides has this id here'] });
      continue;
    }
    if (here.scope !== 'app') {
      rejected.push({
        subject,
        reasons: [
          `"${here.config.name}" here is a server you added, not one the app provides; its tool settings travel with the server itself`,
        ],
      });
      continue;
    }
    const known = here.catalog ? new Set(here.catalog.tools.map((tool) => tool.name)) : undefined;
    const kept = Object.entries(tools).filter(([name]) => {
      if (!known || known.has(name)) return true;
      rejected.push({
        subject: `Tool "${shortText(name)}" of "${here.config.name}"`,
        reasons: ['the server does not list a tool of this name'],
      });
      return false;
    });
    if (kept.length > 0) accepted.push([serverId, here.config.name, Object.fromEntries(kept)]);
  }
  if (accepted.length === 0) return;
  let before: AppServerToolOverrides = {};
  const saved = await deps.storage.profiles.update(deps.profileId, (p) => {
    before = p.appServerToolOverrides;
    const all = accepted.reduce((next, [serverId, , tools]) => {
      const merged = Object.entries(tools).reduce(
        (own, [name, override]) => withToolOverride(own, name, normalizedOverride(override)),
        ownEntry(next, serverId) ?? {},
      );
      return withServerOverrides(next, serverId, merged);
    }, p.appServerToolOverrides);
    return { ...p, appServerToolOverrides: all };
  });
  deps.registry.setAppToolOverrides(saved.appServerToolOverrides);
  // Each line says what each tool was, so a replaced setting is never lost without a word.
  for (const [serverId, serverName, tools] of accepted) {
    const was = ownEntry(before, serverId) ?? {};
    const lines = Object.entries(tools).map(([name, override]) => {
      const [next, previous] = [describeOverride(normalizedOverride(override)), describeOverride(ownEntry(was, name))];
      return `${shortText(name)} ${next}${next === previous ? ' (unchanged)' : ` (was ${previous})`}`;
    });
    imported.push(`Your tool settings for "${serverName}": ${lines.join('; ')}`);
  }
}

/** A tool's setting in a report line: on or off, and the own description's start when it has one. */
function describeOverride(override: ToolOverride | undefined): string {
  const state = override?.enabled === false ? 'off' : 'on';
  return override?.description !== undefined ? `${state}, described as "${shortText(override.description)}"` : state;
}

/** Text from the file as a report shows it: at most 60 characters. */
const shortText = (text: string): string => (text.length > 60 ? `${text.slice(0, 60)}…` : text);
