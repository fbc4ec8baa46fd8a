import { z } from 'zod';
import { serverIdOfKey } from './approval-keys';
import type { AuthKind, ServerConfig } from './server-config';

export { serverIdOfKey, toolNameOfKey } from './approval-keys';

/** Who a server is, for trust: the origin it answers at and how it is authenticated. Its id is only a local name. */
export interface ServerTrust {
  readonly origin: string;
  readonly authKind: AuthKind;
}

/** The origin of a server URL ("https://files.example"), or the text itself when it is no URL. */
export function serverOrigin(url: string): string {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return url;
  }
}

export function trustOf(config: Pick<ServerConfig, 'url' | 'auth'>): ServerTrust {
  return { origin: serverOrigin(config.url), authKind: config.auth.kind };
}

export const isSameTrust = (a: ServerTrust, b: ServerTrust): boolean =>
  a.origin === b.origin && a.authKind === b.authKind;

/** One remembered approval: the hash of the tool definition allowed, and the server identity it was given to. */
export const StoredApproval = z.object({
  hash: z.string().min(1),
  origin: z.string().min(1),
  authKind: z.enum(['none', 'bearer', 'headers', 'oauth']),
  /** The tool as it was allowed (description and input schema), to say how it changed when it asks again. */
  definition: z.object({ description: z.string().max(20_000), inputSchema: z.string().max(50_000) }).optional(),
  /**
   * Set when `hash` covers the tool's app (`_meta.ui`) and annotations too. An approval stored before (without it) was
   * hashed without them: it holds only for a tool that declares no app, and is stored again with the full hash.
   */
  covers: z.literal('app-and-annotations').optional(),
});
export type StoredApproval = z.infer<typeof StoredApproval>;

/**
 * Approvals by tool key ("server/tool"). An entry in another shape (an approval stored before origins were, which
 * the storage migration drops with a notice) is left out here rather than making the whole record unreadable.
 */
export const ApprovalRecords = z.record(z.string(), z.unknown()).transform((entries) => {
  const kept: Record<string, StoredApproval> = {};
  for (const [key, value] of Object.entries(entries)) {
    const parsed = StoredApproval.safeParse(value);
    if (parsed.success) kept[key] = parsed.data;
  }
  return kept;
});
export type ApprovalRecords = z.infer<typeof ApprovalRecords>;

/** The approvals without any of one server's tools. */
export function approvalsWithout<T>(approvals: Readonly<Record<string, T>>, serverId: string): Record<string, T> {
  return Object.fromEntries(Object.entries(approvals).filter(([key]) => serverIdOfKey(key) !== serverId));
}
