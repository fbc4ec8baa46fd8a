import type { SearchableTool } from '../search/tool-document';

/** One entry of the composer's `@` list: a server of the thread (all its tools) or one tool. */
export interface MentionOption {
  /** A resource or template is attached when picked, not mentioned in the text (resource-attachments.ts). */
  readonly kind: 'server' | 'tool' | 'resource' | 'template';
  /** Unique within the list (usable in an element id after escaping). */
  readonly key: string;
  readonly label: string;
  /** The server of a tool, or a server's tool count. */
  readonly detail: string;
  /** What picking it puts after the `@` (a name findMentions resolves to exactly this server or tool). */
  readonly insert: string;
  /** The server resource or template a 'resource' or 'template' option attaches. */
  readonly resource?: { readonly serverId: string; readonly uri: string; readonly name: string };
}

export interface MentionServer {
  readonly id: string;
  readonly name: string;
}

const MAX_OPTIONS = 50;
/** Lowercase letters and digits, as mention matching compares names. */
const squash = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
// A mention is one run of non-space characters; trailing punctuation is dropped when it is read back.
const isMentionToken = (name: string): boolean => /^[^\s@]+$/u.test(name) && !/[.,;:!?)\]}"']$/u.test(name);

/**
 * The `@` choices for a thread: its enabled servers, then their tools, filtered by what was typed after the `@`
 * (names first that start with it, then names that contain it, then matches on the server name). A tool whose
 * name two servers share is inserted as `server/tool` so the mention loads the picked one only.
 */
export function mentionOptions(
  servers: readonly MentionServer[],
  tools: readonly SearchableTool[],
  query: string,
): MentionOption[] {
  const q = squash(query);
  const toolCounts = new Map<string, number>();
  const nameCounts = new Map<string, number>();
  for (const tool of tools) {
    toolCounts.set(tool.serverId, (toolCounts.get(tool.serverId) ?? 0) + 1);
    nameCounts.set(squash(tool.toolName), (nameCounts.get(squash(tool.toolName)) ?? 0) + 1);
  }
  const serverToken = (server: MentionServer) => (isMentionToken(server.name) ? server.name : server.id);
  const all: MentionOption[] = [
    ...servers.map((server) => {
      const count = toolCounts.get(server.id) ?? 0;
      return {
        kind: 'server' as const,
        key: `server:${server.id}`,
        label: server.name,
        detail: `server · ${count} ${count === 1 ? 'tool' : 'tools'}`,
        insert: serverToken(server),
      };
    }),
    ...tools.map((tool) => {
      const name = isMentionToken(tool.toolName) ? tool.toolName : tool.modelName;
      const isShared = (nameCounts.get(squash(tool.toolName)) ?? 0) > 1;
      const server = servers.find((s) => s.id === tool.serverId);
      return {
        kind: 'tool' as const,
        key: `tool:${tool.serverId}:${tool.toolName}`,
        label: tool.toolName,
        detail: tool.serverName,
        insert: isShared && server ? `${serverToken(server)}/${name}` : name,
      };
    }),
  ];
  if (!q) return all.slice(0, MAX_OPTIONS);
  const rank = (option: MentionOption): number => {
    const label = squash(option.label);
    if (label.startsWith(q)) return 0;
    if (label.includes(q)) return 1;
    return option.kind === 'tool' && squash(option.detail).includes(q) ? 2 : -1;
  };
  return all
    .map((option, order) => ({ option, order, rank: rank(option) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, MAX_OPTIONS)
    .map((entry) => entry.option);
}
