import type { ToolRef } from '../domain/tool-catalog';

export const MAX_TOOL_NAME_LENGTH = 64;
const PREFIX = 'mcp__';

/**
 * The name the model sees for a server's tool: `mcp__{server}__{tool}`, only [a-zA-Z0-9_-], at most 64
 * characters. It depends only on the pair, so it is stable; when sanitizing or truncating changed the
 * name, a hash of the exact pair is appended so two tools cannot end up with the same name.
 */
export function modelToolName(serverId: string, toolName: string, hashLength = 8): string {
  const raw = `${PREFIX}${serverId}__${toolName}`;
  const clean = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (clean === raw && clean.length <= MAX_TOOL_NAME_LENGTH) return clean;
  const suffix = `_${fnv1aHex(`${serverId}\u0000${toolName}`).slice(0, hashLength)}`;
  return `${clean.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** How the model names of a server's tools begin (before a long name is cut to 64 characters). */
export function modelNamePrefix(serverId: string): string {
  return `${PREFIX}${serverId}__`.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** Maps model tool names back to servers and tools; built from every known tool. */
export class ToolNameMap {
  private readonly byName = new Map<string, ToolRef>();
  private readonly byRef = new Map<string, string>();

  constructor(refs: Iterable<ToolRef>) {
    this.addAll(refs);
  }

  /** Names more tools after the ones it has: the same names as a map built from all of them in that order. */
  addAll(refs: Iterable<ToolRef>): void {
    for (const ref of refs) this.add(ref);
  }

  private add(ref: ToolRef): void {
    const key = refKey(ref);
    if (this.byRef.has(key)) return;
    // A clash needs a sanitized name equal to another pair's; a longer hash settles it.
    let name = modelToolName(ref.serverId, ref.toolName);
    for (let hashLength = 12; this.byName.has(name) && hashLength <= 16; hashLength += 4)
      name = modelToolName(ref.serverId, `${ref.toolName}\u0000`, hashLength);
    this.byName.set(name, ref);
    this.byRef.set(key, name);
  }

  nameOf(ref: ToolRef): string | undefined {
    return this.byRef.get(refKey(ref));
  }

  resolve(modelName: string): ToolRef | undefined {
    return this.byName.get(modelName);
  }
}

function refKey(ref: ToolRef): string {
  return `${ref.serverId}\u0000${ref.toolName}`;
}

/** 32-bit FNV-1a, twice with different seeds for 64 bits; a name suffix, not a security boundary. */
function fnv1aHex(text: string): string {
  const run = (seed: number) => {
    let hash = seed;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    return (hash >>> 0).toString(16).padStart(8, '0');
  };
  return run(0x811c9dc5) + run(0x01000193);
}
