import { describeError } from '../domain/errors';
import type { ToolOverride } from '../domain/server-config';
import { normalizedOverride, ownEntry, withServerOverrides, withToolOverride } from '../domain/tool-overrides';
import type { RegisteredServer } from '../mcp/registry';
import type { ServerDeps } from './server-edit';

/** A change to one tool: switch it on or off, or set its description (empty: the default one again). */
export interface ToolChange {
  readonly enabled?: boolean;
  /** Whether code the model writes (execute_code) may call the tool. */
  readonly callableFromCode?: boolean;
  readonly description?: string;
}

/** One tool as the servers manager lists it. */
export interface ToolView {
  readonly name: string;
  /** The description the model gets without the person's own: the server's, or the app's override of it. */
  readonly serverDescription: string;
  /** The person's own description, when set; the model gets this one. */
  readonly description?: string;
  readonly isEnabled: boolean;
  /** Set when code the model writes may not call it (the person or the app said no). */
  readonly isKeptFromCode?: true;
  /** The app's configuration forbids calls from code: the person cannot allow them. */
  readonly isNotFromCodeByApp?: boolean;
  /** Switched off by the app's configuration: the person cannot switch it on. */
  readonly isOffByApp?: boolean;
}

/** The message when a person tries to let code call a tool the deployer keeps from code. */
export const NOT_FROM_CODE_BY_APP = 'The app keeps this tool from code; it cannot be allowed here.';

/** The message when a person tries to switch on a tool the deployer switched off. */
export const OFF_BY_APP = 'The app switched this tool off; it cannot be switched on here.';

/**
 * The tools of a catalog with the person's overrides (`own`) applied on top of the deployer's (`base`, an app
 * server's config; empty for a user server, whose config holds the person's own).
 */
export function toolViews(
  tools: readonly { name: string; description?: string }[],
  own: Readonly<Record<string, ToolOverride>>,
  base: Readonly<Record<string, ToolOverride>> = {},
): ToolView[] {
  return tools.map((tool) => {
    const mine = ownEntry(own, tool.name);
    const deployers = ownEntry(base, tool.name);
    const isOffByApp = deployers?.enabled === false;
    const isNotFromCodeByApp = deployers?.callableFromCode === false;
    return {
      name: tool.name,
      serverDescription: deployers?.description ?? tool.description ?? '',
      ...(mine?.description !== undefined ? { description: mine.description } : {}),
      isEnabled: !isOffByApp && mine?.enabled !== false,
      ...(isNotFromCodeByApp || mine?.callableFromCode === false ? { isKeptFromCode: true as const } : {}),
      ...(isOffByApp ? { isOffByApp } : {}),
      ...(isNotFromCodeByApp ? { isNotFromCodeByApp } : {}),
    };
  });
}

/** A server's tools as the manager lists them: an app server's with the person's overrides over the deployer's. */
export function serverToolViews({ scope, config, catalog, personalToolOverrides }: RegisteredServer): ToolView[] {
  const tools = catalog?.tools ?? [];
  return scope === 'app'
    ? toolViews(tools, personalToolOverrides, config.toolOverrides)
    : toolViews(tools, config.toolOverrides);
}

const isEmpty = (record: object) => Object.keys(record).length === 0;

/**
 * How many of a server's tools are on, as `serverToolViews` would say, without making the views: the thread's server
 * line reads it for every server, and the views are made only when the Servers panel lists a server's tools.
 */
export function enabledToolCount({ scope, config, catalog, personalToolOverrides }: RegisteredServer): number {
  const tools = catalog?.tools ?? [];
  const overrides = scope === 'app' ? [personalToolOverrides, config.toolOverrides] : [config.toolOverrides];
  const off = new Set(
    overrides.flatMap((record) =>
      Object.entries(record).flatMap(([name, override]) => (override.enabled === false ? [name] : [])),
    ),
  );
  return off.size === 0 ? tools.length : tools.filter((tool) => !off.has(tool.name)).length;
}

/**
 * `serverToolViews`, made again only when what they are made of changes: every registry event (a status, a log line)
 * refreshes the whole store, and a catalog can hold thousands of tools.
 */
export function memoizedToolViews(): (server: RegisteredServer) => ToolView[] {
  const made = new Map<string, { readonly from: RegisteredServer; readonly views: ToolView[] }>();
  return (server) => {
    const last = made.get(server.config.id)?.from;
    const isSame =
      last &&
      last.scope === server.scope &&
      last.catalog === server.catalog &&
      last.config.toolOverrides === server.config.toolOverrides &&
      (last.personalToolOverrides === server.personalToolOverrides ||
        (isEmpty(last.personalToolOverrides) && isEmpty(server.personalToolOverrides)));
    if (isSame) return made.get(server.config.id)!.views;
    const views = serverToolViews(server);
    made.set(server.config.id, { from: server, views });
    return views;
  };
}

/**
 * Only what differs from the tool's default is kept: a description saved as the server's own (the editor opens with
 * it) is no override, so a later change of the server's description still shows.
 */
function changed(
  previous: ToolOverride | undefined,
  change: ToolChange,
  serverDescription: string,
): ToolOverride | undefined {
  const isServers = change.description !== undefined && change.description.trim() === serverDescription.trim();
  return normalizedOverride({ ...previous, ...change, ...(isServers ? { description: '' } : {}) });
}

/** The description a tool has without the person's override, as the manager shows it (the deployer's for an app server). */
function serverDescriptionOf(server: RegisteredServer, toolName: string): string {
  return serverToolViews(server).find((tool) => tool.name === toolName)?.serverDescription ?? '';
}

/**
 * Stores a tool's switch or description and applies it at once (the model sees it on its next call). A user
 * server's go into its config; an app server's into the person's profile, since the app's config is the deployer's.
 */
export async function changeTool(
  deps: ServerDeps,
  serverId: string,
  toolName: string,
  change: ToolChange,
): Promise<string | undefined> {
  const current = deps.registry.get(serverId);
  if (!current) return 'This server no longer exists.';
  try {
    if (current.scope === 'app') return await changeAppServerTool(deps, current, toolName, change);
    const overrides = current.config.toolOverrides;
    const toolOverrides = withToolOverride(
      overrides,
      toolName,
      changed(ownEntry(overrides, toolName), change, serverDescriptionOf(current, toolName)),
    );
    const saved = await deps.storage.profiles.saveServer(deps.profileId, { ...current.config, toolOverrides });
    await deps.registry.update(saved);
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

async function changeAppServerTool(
  deps: ServerDeps,
  server: RegisteredServer,
  toolName: string,
  change: ToolChange,
): Promise<string | undefined> {
  const serverId = server.config.id;
  if (change.enabled === true && ownEntry(server.config.toolOverrides, toolName)?.enabled === false) return OFF_BY_APP;
  if (change.callableFromCode === true && ownEntry(server.config.toolOverrides, toolName)?.callableFromCode === false)
    return NOT_FROM_CODE_BY_APP;
  const serverDescription = serverDescriptionOf(server, toolName);
  // Read, changed and written in one transaction: another tab's change to another tool is kept.
  const saved = await deps.storage.profiles.update(deps.profileId, (profile) => {
    const all = profile.appServerToolOverrides;
    const overrides = ownEntry(all, serverId) ?? {};
    return {
      ...profile,
      appServerToolOverrides: withServerOverrides(
        all,
        serverId,
        withToolOverride(overrides, toolName, changed(ownEntry(overrides, toolName), change, serverDescription)),
      ),
    };
  });
  deps.registry.setAppToolOverrides(saved.appServerToolOverrides);
  return undefined;
}
