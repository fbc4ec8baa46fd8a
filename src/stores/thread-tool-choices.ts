// A thread's own tool choices that apply at once (no form): pinned tools and its deferral.
import { describeError } from '../domain/errors';
import type { ThreadConfig } from '../domain/thread-config';
import type { ToolRef } from '../domain/tool-catalog';
import { definedOverrides, type Deferral } from '../domain/tool-search-settings';
import { AUTO_DEFER_TOOL_COUNT } from '../search/tool-selection';
import type { Storage } from '../storage/storage';
import type { ServerView } from './servers-store';

export interface ThreadToolChoiceActions {
  /** Pins a tool of the thread (offered in every model call of it) or unpins it; resolves to an error message, or undefined. */
  setPinnedTool(threadId: string, ref: ToolRef, isPinned: boolean): Promise<string | undefined>;
  /** The thread's own deferral, or undefined for the profile's; resolves to an error message, or undefined. */
  setThreadDeferral(threadId: string, deferral: Deferral | undefined): Promise<string | undefined>;
  /** Stops running a server's sampling requests in the thread without asking (issue #20); resolves to an error, or undefined. */
  stopAllowingSampling(threadId: string, serverId: string): Promise<string | undefined>;
}

/**
 * What "Never" costs a thread with many tools, said beside the choice; undefined when they are few. `toolCount` leaves
 * out the tools of the servers set to "Always defer" (named in `alwaysDeferred`), which stay behind tool search.
 */
export function neverDeferNote(toolCount: number, alwaysDeferred: readonly string[] = []): string | undefined {
  if (toolCount <= AUTO_DEFER_TOOL_COUNT) return undefined;
  const kept =
    alwaysDeferred.length === 0
      ? ''
      : ` The tools of ${alwaysDeferred.join(', ')} (set to “Always defer”) stay behind tool search.`;
  return (
    `Never sends all ${toolCount.toLocaleString('en-US')} tools of this thread's servers in every model call, whatever ` +
    `the message: each call pays for their definitions. Auto keeps them behind tool search once there are more than ` +
    `${AUTO_DEFER_TOOL_COUNT}.${kept}`
  );
}

/**
 * The thread's pins that are kept but not sent now ("tool (Server)"): their server is off in the thread, or the tool
 * is switched off or no longer listed. Pins of a server removed since are not counted.
 */
export function waitingPins(thread: ThreadConfig, servers: readonly ServerView[]): string[] {
  const byId = new Map(servers.map((s) => [s.id, s]));
  return thread.pinnedTools.flatMap((pin) => {
    const server = byId.get(pin.serverId);
    if (!server) return [];
    const isSent =
      thread.enabledServerIds.includes(server.id) && server.tools.some((t) => t.name === pin.toolName && t.isEnabled);
    return isSent ? [] : [`${pin.toolName} (${server.name})`];
  });
}

const isSame = (a: ToolRef, b: ToolRef): boolean => a.serverId === b.serverId && a.toolName === b.toolName;

/** The thread's pinned tools with `ref` added (at the end, so the prompt cache's prefix holds) or taken out. */
export function withPinnedTool(pinned: readonly ToolRef[], ref: ToolRef, isPinned: boolean): ToolRef[] {
  const others = pinned.filter((p) => !isSame(p, ref));
  return isPinned ? [...others, { serverId: ref.serverId, toolName: ref.toolName }] : others;
}

/** The thread's tool-search overrides with its deferral set or cleared; undefined when nothing is left. */
function withDeferral(thread: ThreadConfig, deferral: Deferral | undefined): ThreadConfig['toolSearch'] {
  const next = definedOverrides({ ...thread.toolSearch, deferral });
  return Object.keys(next).length > 0 ? next : undefined;
}

/** The actions, each a change to what is stored (so a choice made in another tab meanwhile is kept). */
export function threadToolChoiceActions(
  storage: Pick<Storage, 'threads'>,
  refreshThreads: () => Promise<void>,
): ThreadToolChoiceActions {
  const change = async (threadId: string, update: (thread: ThreadConfig) => Partial<ThreadConfig>) => {
    try {
      await storage.threads.update(threadId, update);
      await refreshThreads();
      return undefined;
    } catch (error) {
      return describeError(error);
    }
  };
  return {
    setPinnedTool: (threadId, ref, isPinned) =>
      change(threadId, (t) => ({ pinnedTools: withPinnedTool(t.pinnedTools, ref, isPinned) })),
    setThreadDeferral: (threadId, deferral) => change(threadId, (t) => ({ toolSearch: withDeferral(t, deferral) })),
    stopAllowingSampling: (threadId, serverId) =>
      change(threadId, (t) => {
        const { [serverId]: _stopped, ...others } = t.samplingAllowed ?? {};
        return { samplingAllowed: others };
      }),
  };
}
