import { describeError } from '../domain/errors';
import type { ToolOverride } from '../domain/server-config';
import type { ServerDeps } from './server-edit';

/** A change to one tool: switch it on or off, or set its description (empty: the server's own again). */
export interface ToolChange {
  readonly enabled?: boolean;
  readonly description?: string;
}

/** One tool as the servers manager lists it. */
export interface ToolView {
  readonly name: string;
  /** The description the server gives. */
  readonly serverDescription: string;
  /** The person's own description, when set; the model gets this one. */
  readonly description?: string;
  readonly isEnabled: boolean;
}

/** The tools of a catalog with the server's overrides applied. */
export function toolViews(tools: readonly { name: string; description?: string }[], overrides: Readonly<Record<string, ToolOverride>>): ToolView[] {
  return tools.map((tool) => {
    const override = overrides[tool.name];
    return {
      name: tool.name,
      serverDescription: tool.description ?? '',
      ...(override?.description !== undefined ? { description: override.description } : {}),
      isEnabled: override?.enabled !== false,
    };
  });
}

/** Stores a tool's switch or description for a user server and applies it at once (the model sees it on its next call). */
export async function changeTool(deps: ServerDeps, serverId: string, toolName: string, change: ToolChange): Promise<string | undefined> {
  const current = deps.registry.get(serverId);
  if (!current) return 'This server no longer exists.';
  if (current.scope !== 'user') return 'The tools of a server the app provides cannot be changed here.';
  const { [toolName]: previous, ...others } = current.config.toolOverrides;
  const merged = { ...previous, ...change };
  const description = merged.description?.trim();
  // Only what differs from the server's own tool is kept.
  const next: ToolOverride = { ...(merged.enabled === false ? { enabled: false } : {}), ...(description ? { description } : {}) };
  const toolOverrides = Object.keys(next).length > 0 ? { ...others, [toolName]: next } : others;
  try {
    const saved = await deps.storage.profiles.saveServer(deps.profileId, { ...current.config, toolOverrides });
    await deps.registry.update(saved);
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}
