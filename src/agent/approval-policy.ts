import { isSameTrust, type StoredApproval } from '../domain/server-trust';
import type { EffectiveTool } from '../domain/tool';
import type { ToolRef } from '../domain/tool-catalog';

/** The key approvals are stored under. */
export function toolKey(tool: ToolRef): string {
  return `${tool.serverId}/${tool.toolName}`;
}

export interface StoredApprovals {
  /** "Always allow" of the profile: key → definition hash and server identity. */
  readonly always: Record<string, StoredApproval>;
  /** "Allow for this thread": key → definition hash and server identity. */
  readonly thread: Record<string, StoredApproval>;
}

export type PolicyOutcome =
  { readonly decision: 'allow'; readonly by: 'rule' | 'annotation' } | { readonly decision: 'ask' };

/** The approval to store for a tool whose definition hashed to `hash`. */
export function approvalFor(tool: EffectiveTool, hash: string): StoredApproval {
  return { hash, origin: tool.trust.origin, authKind: tool.trust.authKind };
}

/** A stored approval holds for the same definition of a server at the same origin with the same auth kind only. */
function holds(stored: StoredApproval | undefined, tool: EffectiveTool, hash: string): boolean {
  return stored !== undefined && stored.hash === hash && isSameTrust(stored, tool.trust);
}

/**
 * Whether a tool may run without asking. A stored approval holds only for the definition and the server identity
 * (origin, auth kind) it was given for: a changed name, description, schema or origin asks again; destructive tools
 * ask unless always allowed; read-only tools of the deployer's servers run without asking. A server the person
 * added is asked about by default: its annotations are its own claims.
 */
export function decideApproval(tool: EffectiveTool, hash: string, stored: StoredApprovals): PolicyOutcome {
  const key = toolKey(tool);
  if (holds(stored.always[key], tool, hash)) return { decision: 'allow', by: 'rule' };
  if (tool.annotations?.destructiveHint === true) return { decision: 'ask' };
  if (holds(stored.thread[key], tool, hash)) return { decision: 'allow', by: 'rule' };
  if (tool.annotations?.readOnlyHint === true && tool.isFromTrustedServer === true)
    return { decision: 'allow', by: 'annotation' };
  return { decision: 'ask' };
}

/** The text hashed to tell whether a tool's definition (or its server's identity) changed since it was approved. */
export function definitionText(tool: EffectiveTool): string {
  return JSON.stringify([
    tool.serverId,
    tool.toolName,
    tool.description,
    tool.definition.inputSchema,
    tool.trust.origin,
    tool.trust.authKind,
  ]);
}
