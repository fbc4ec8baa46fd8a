import type { AgentTool } from './ports';

/** The key approvals are stored under. */
export function toolKey(tool: Pick<AgentTool, 'serverId' | 'toolName'>): string {
  return `${tool.serverId}/${tool.toolName}`;
}

export interface StoredApprovals {
  /** "Always allow" of the profile: key → definition hash. */
  readonly always: Record<string, string>;
  /** "Allow for this thread": key → definition hash. */
  readonly thread: Record<string, string>;
}

export type PolicyOutcome =
  { readonly decision: 'allow'; readonly by: 'rule' | 'annotation' } | { readonly decision: 'ask' };

/**
 * Whether a tool may run without asking. A stored approval holds only for the definition it was given
 * for (a changed name, description or schema asks again); destructive tools ask unless always allowed;
 * read-only tools of the deployer's servers run without asking. A server the person added is asked about
 * by default: its annotations are its own claims.
 */
export function decideApproval(tool: AgentTool, hash: string, stored: StoredApprovals): PolicyOutcome {
  const key = toolKey(tool);
  if (stored.always[key] === hash) return { decision: 'allow', by: 'rule' };
  if (tool.annotations?.destructiveHint === true) return { decision: 'ask' };
  if (stored.thread[key] === hash) return { decision: 'allow', by: 'rule' };
  if (tool.annotations?.readOnlyHint === true && tool.isFromTrustedServer === true)
    return { decision: 'allow', by: 'annotation' };
  return { decision: 'ask' };
}

/** The text hashed to tell whether a tool's definition changed since it was approved. */
export function definitionText(tool: AgentTool): string {
  return JSON.stringify([tool.serverId, tool.toolName, tool.description, tool.inputSchema]);
}
