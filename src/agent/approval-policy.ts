import { isSameTrust, type StoredApproval } from '../domain/server-trust';
import type { EffectiveTool } from '../domain/tool';
import type { ToolRef } from '../domain/tool-catalog';
import { savedDefinition } from './definition-change';

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
  const definition = savedDefinition(tool);
  return {
    hash,
    origin: tool.trust.origin,
    authKind: tool.trust.authKind,
    ...(definition ? { definition } : {}),
    covers: 'app-and-annotations',
  };
}

/**
 * A stored approval holds for the same definition of a server at the same origin with the same auth kind only. One
 * stored before the hash covered apps and annotations holds by the older hash (`legacyHash`, given only for a tool
 * that declares no app).
 */
export function holds(
  stored: StoredApproval | undefined,
  tool: EffectiveTool,
  hash: string,
  legacyHash?: string,
): boolean {
  if (stored === undefined || !isSameTrust(stored, tool.trust)) return false;
  return (
    stored.hash === hash || (stored.covers === undefined && legacyHash !== undefined && stored.hash === legacyHash)
  );
}

/**
 * Whether a tool may run without asking. A stored approval holds only for the definition and the server identity
 * (origin, auth kind) it was given for: a changed name, description, schema, app (`_meta.ui`), annotations or origin
 * asks again; destructive tools
 * ask unless always allowed; read-only tools of the deployer's servers run without asking. A server the person
 * added is asked about by default: its annotations are its own claims.
 */
export function decideApproval(
  tool: EffectiveTool,
  hash: string,
  stored: StoredApprovals,
  legacyHash?: string,
): PolicyOutcome {
  const key = toolKey(tool);
  if (holds(stored.always[key], tool, hash, legacyHash)) return { decision: 'allow', by: 'rule' };
  if (tool.annotations?.destructiveHint === true) return { decision: 'ask' };
  if (holds(stored.thread[key], tool, hash, legacyHash)) return { decision: 'allow', by: 'rule' };
  if (tool.annotations?.readOnlyHint === true && tool.isFromTrustedServer === true)
    return { decision: 'allow', by: 'annotation' };
  return { decision: 'ask' };
}

/**
 * The text hashed to tell whether a tool's definition (or its server's identity) changed since it was approved: its
 * app and visibility (`_meta.ui`) and annotations are added only when it has them, so the text of a tool without them
 * is what it was before they were covered (its stored approvals still hold).
 */
export function definitionText(tool: EffectiveTool): string {
  const behaviour = behaviourOf(tool);
  return JSON.stringify(behaviour ? [...baseOf(tool), behaviour] : baseOf(tool));
}

/**
 * The text hashed before apps and annotations were covered, for approvals stored then; undefined for a tool that
 * declares an app or a visibility (an approval given before cannot have been for that).
 */
export function legacyDefinitionText(tool: EffectiveTool): string | undefined {
  return behaviourOf(tool)?.ui ? undefined : JSON.stringify(baseOf(tool));
}

const baseOf = (tool: EffectiveTool) => [
  tool.serverId,
  tool.toolName,
  tool.description,
  tool.definition.inputSchema,
  tool.trust.origin,
  tool.trust.authKind,
];

/** The tool's app (`_meta.ui.resourceUri` or the older `_meta["ui/resourceUri"]`, visibility) and annotations. */
function behaviourOf(tool: EffectiveTool): { ui?: Record<string, unknown>; annotations?: unknown } | undefined {
  const meta = isRecord(tool.definition._meta) ? tool.definition._meta : {};
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const resourceUri = ui.resourceUri ?? meta['ui/resourceUri'];
  const app = {
    ...(resourceUri !== undefined ? { resourceUri } : {}),
    ...(ui.visibility !== undefined ? { visibility: ui.visibility } : {}),
  };
  const annotations = tool.definition.annotations;
  const hasApp = Object.keys(app).length > 0;
  if (!hasApp && annotations === undefined) return undefined;
  return {
    ...(hasApp ? { ui: app } : {}),
    ...(annotations !== undefined ? { annotations: sortedKeys(annotations) } : {}),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The same object with its keys in order, so a server listing them in another order is no change. */
const sortedKeys = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
