/** One enabled server's instructions (the `instructions` of its initialize result). */
export interface ServerInstructions {
  readonly serverId: string;
  readonly serverName: string;
  readonly text: string;
}

/**
 * The system prompt of a thread: its own prompt, then each enabled server's instructions under the server's name.
 * Servers are ordered by name (then id), never by connection order, and nothing varies with time: the same thread
 * and servers give the same text byte for byte, which keeps the prompt cache's prefix stable.
 */
export function composeSystemPrompt(
  threadPrompt: string | undefined,
  servers: readonly ServerInstructions[],
): string | undefined {
  const withText = servers.filter((s) => s.text.trim().length > 0);
  const sorted = [...withText].sort((a, b) => compare(a.serverName, b.serverName) || compare(a.serverId, b.serverId));
  const sections = sorted.map((s) => `## ${s.serverName}\n\n${s.text.trim()}`);
  const parts = [
    ...(threadPrompt?.trim() ? [threadPrompt] : []),
    ...(sections.length > 0
      ? [
          `# Instructions from the MCP servers of this thread\n\nEach server's tools come with its own instructions below, under its name.\n\n${sections.join('\n\n')}`,
        ]
      : []),
  ];
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** Code-unit order: the same in every locale and browser. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
