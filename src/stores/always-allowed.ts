import { describeError } from '../domain/errors';
import { serverIdOfKey, toolNameOfKey, trustOf } from '../domain/server-trust';
import type { AuthKind } from '../domain/server-config';
import type { Registry } from '../mcp/registry';
import type { Storage } from '../storage/storage';

/** One "Always allow" of the profile, as Settings lists it: which tool, of which server, at which origin. */
export interface AlwaysAllowedView {
  readonly key: string;
  readonly toolName: string;
  readonly serverName: string;
  readonly origin: string;
  readonly authKind: AuthKind;
  /** The server now answers elsewhere or authenticates otherwise: the approval no longer applies (it asks). */
  readonly isInert: boolean;
}

export interface AlwaysAllowedDeps {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly profileId: string;
}

/** The profile's "Always allow" approvals, by server and tool name. */
export async function listAlwaysAllowed(deps: AlwaysAllowedDeps): Promise<AlwaysAllowedView[]> {
  const profile = await deps.storage.profiles.get(deps.profileId);
  return Object.entries(profile?.alwaysAllow ?? {})
    .map(([key, approval]) => {
      const server = deps.registry.get(serverIdOfKey(key))?.config;
      const now = server ? trustOf(server) : undefined;
      return {
        key,
        toolName: toolNameOfKey(key),
        serverName: server?.name ?? serverIdOfKey(key),
        origin: approval.origin,
        authKind: approval.authKind,
        isInert: now?.origin !== approval.origin || now.authKind !== approval.authKind,
      };
    })
    .sort((a, b) => a.serverName.localeCompare(b.serverName) || a.toolName.localeCompare(b.toolName));
}

/** Forgets one "Always allow": the tool asks again. Resolves to an error message, or undefined when done. */
export async function revokeAlwaysAllowed(deps: AlwaysAllowedDeps, key: string): Promise<string | undefined> {
  try {
    await deps.storage.profiles.update(deps.profileId, (p) => ({
      ...p,
      alwaysAllow: Object.fromEntries(Object.entries(p.alwaysAllow).filter(([k]) => k !== key)),
    }));
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}
