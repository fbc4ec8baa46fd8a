import { z } from 'zod';
import { ServerId, ToolOverride } from './server-config';

/**
 * A tool's name as an override names it: non-empty as a catalog's, and bounded so a file cannot bloat a profile.
 * "__proto__" is refused: a record cannot keep it as a key (zod drops it), so it would be reported but never stored.
 */
export const OverriddenToolName = z
  .string()
  .min(1, 'Tool name is required')
  .max(256, 'Tool name must be at most 256 characters')
  .refine((name) => name !== '__proto__', 'A tool named "__proto__" cannot have settings');

/** A bad key reported in its schema's own words rather than zod's "Invalid key in record". */
const keyError = {
  error: (issue: z.core.$ZodRawIssue) => (issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined),
};

/** A person's own switches and descriptions for one server's tools, by tool name. */
export const PersonalToolOverrides = z.record(OverriddenToolName, ToolOverride, keyError);
export type PersonalToolOverrides = z.infer<typeof PersonalToolOverrides>;

/** A person's tool overrides for the servers the app provides, by server id (kept in their profile). */
export const AppServerToolOverrides = z.record(ServerId, PersonalToolOverrides, keyError);
export type AppServerToolOverrides = z.infer<typeof AppServerToolOverrides>;

/** The entry stored under `key`, never one inherited from Object.prototype (a tool may be named "constructor"). */
export function ownEntry<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The override in effect for one tool: the deployer's (`base`) with the person's on top. A tool either of them
 * switched off is off (the person cannot switch on what the deployer switched off); the person's description wins.
 */
export function layerToolOverride(
  base: ToolOverride | undefined,
  personal: ToolOverride | undefined,
): ToolOverride | undefined {
  if (!personal) return base;
  if (!base) return personal;
  const description = personal.description ?? base.description;
  const isOff = base.enabled === false || personal.enabled === false;
  const isNotFromCode = base.callableFromCode === false || personal.callableFromCode === false;
  return {
    ...(isOff ? { enabled: false } : {}),
    ...(isNotFromCode ? { callableFromCode: false } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/** What a change leaves of a tool's override: only what differs from the tool's default (off, or an own description). */
export function normalizedOverride(override: ToolOverride): ToolOverride | undefined {
  const description = override.description?.trim();
  const next: ToolOverride = {
    ...(override.enabled === false ? { enabled: false } : {}),
    ...(override.callableFromCode === false ? { callableFromCode: false } : {}),
    ...(description ? { description } : {}),
  };
  return Object.keys(next).length > 0 ? next : undefined;
}

/** `overrides` with `toolName`'s override replaced by `next` (removed when undefined). */
export function withToolOverride(
  overrides: Readonly<Record<string, ToolOverride>>,
  toolName: string,
  next: ToolOverride | undefined,
): Record<string, ToolOverride> {
  const others = Object.fromEntries(Object.entries(overrides).filter(([name]) => name !== toolName));
  return next ? { ...others, [toolName]: next } : others;
}

/** `all` with one app server's overrides replaced (a server left with none is dropped). */
export function withServerOverrides(
  all: AppServerToolOverrides,
  serverId: string,
  overrides: PersonalToolOverrides,
): AppServerToolOverrides {
  const others = Object.fromEntries(Object.entries(all).filter(([id]) => id !== serverId));
  return Object.keys(overrides).length > 0 ? { ...others, [serverId]: overrides } : others;
}

/** Whether two sets of tool overrides say the same, whatever order their keys came in. */
export function sameToolOverrides(
  a: Readonly<Record<string, ToolOverride>> | undefined,
  b: Readonly<Record<string, ToolOverride>> | undefined,
): boolean {
  const left = Object.entries(a ?? {});
  if (left.length !== Object.keys(b ?? {}).length) return false;
  return left.every(([name, override]) => {
    const other = ownEntry(b, name);
    return (
      other !== undefined &&
      other.enabled === override.enabled &&
      other.callableFromCode === override.callableFromCode &&
      other.description === override.description
    );
  });
}
