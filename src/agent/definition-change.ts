import { isSameTrust, type StoredApproval } from '../domain/server-trust';
import type { StoredApprovals } from './approval-policy';
import type { EffectiveTool } from '../domain/tool';

const MAX_SAVED_SCHEMA = 50_000;
const MAX_SAVED_DESCRIPTION = 20_000;

/** The parts of a tool kept with its approval, so a later change can be told apart. */
export function savedDefinition(tool: EffectiveTool): StoredApproval['definition'] {
  const inputSchema = JSON.stringify(tool.definition.inputSchema);
  if (inputSchema.length > MAX_SAVED_SCHEMA || tool.description.length > MAX_SAVED_DESCRIPTION) return undefined;
  return { description: tool.description, inputSchema };
}

/**
 * When the tool was allowed before (for this thread or always) from the same server but its definition differs now,
 * what changed, in words for the approval card: its description, its inputs (added, removed or changed), or just
 * "its definition" when the allowed one was not kept. Undefined when it was never allowed or nothing changed.
 */
export function definitionChange(tool: EffectiveTool, hash: string, approvals: StoredApprovals): string[] | undefined {
  const key = `${tool.serverId}/${tool.toolName}`; // approval-policy's toolKey (that module imports this one)
  const before = [approvals.always[key], approvals.thread[key]].find(
    (stored) => stored !== undefined && stored.hash !== hash && isSameTrust(stored, tool.trust),
  );
  if (!before) return undefined;
  const old = before.definition;
  if (!old) return ['its definition changed (the allowed version was not kept, so what changed cannot be shown)'];
  const changes: string[] = [];
  if (old.description !== tool.description)
    changes.push(`its description changed from “${clip(old.description)}” to “${clip(tool.description)}”`);
  const [was, now] = [propertiesOf(parse(old.inputSchema)), propertiesOf(tool.definition.inputSchema)];
  const added = [...now.keys()].filter((name) => !was.has(name));
  const removed = [...was.keys()].filter((name) => !now.has(name));
  const altered = [...now.keys()].filter((name) => was.has(name) && was.get(name) !== now.get(name));
  if (added.length > 0) changes.push(`it takes new inputs: ${added.join(', ')}`);
  if (removed.length > 0) changes.push(`it no longer takes: ${removed.join(', ')}`);
  if (altered.length > 0) changes.push(`these inputs changed: ${altered.join(', ')}`);
  if (changes.length === 0 && old.inputSchema !== JSON.stringify(tool.definition.inputSchema))
    changes.push('its input schema changed');
  return changes.length > 0 ? changes : ['its definition changed'];
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The schema's top-level properties, each as JSON text to compare. */
function propertiesOf(schema: unknown): Map<string, string> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return new Map();
  return new Map(Object.entries(properties).map(([name, value]) => [name, JSON.stringify(value)]));
}
