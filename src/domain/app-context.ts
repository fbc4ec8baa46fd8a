// What MCP Apps tell the model (ui/update-model-context): kept per thread, the latest per app, and added to the
// system prompt of the thread's next turns while the app's server is on in the thread. Stored with the thread, so a
// reload does not lose it; forgotten with the server (server-trust-records.ts).

/** The most one app's context holds; longer text is cut, saying so. */
export const MAX_APP_CONTEXT_CHARS = 20_000;
/** The most apps of one thread whose context is kept: the ones that updated it last. */
export const MAX_APP_CONTEXTS = 10;

/** What one app said, and the server whose app it is. */
export interface AppContext {
  readonly serverId: string;
  readonly text: string;
}

/** The thread's apps' context, by the tool call that showed each app. */
export type AppContexts = Readonly<Record<string, AppContext>>;

/**
 * `contexts` with the app of `toolUseId` now saying `text` (cut to the limit), as the newest, the oldest dropped past
 * the limit; an empty text clears that app's context.
 */
export function withAppContext(
  contexts: AppContexts | undefined,
  toolUseId: string,
  serverId: string,
  text: string,
): AppContexts {
  const others = Object.entries(contexts ?? {}).filter(([id]) => id !== toolUseId);
  if (text.trim() === '') return Object.fromEntries(others);
  const kept =
    text.length > MAX_APP_CONTEXT_CHARS
      ? `${text.slice(0, MAX_APP_CONTEXT_CHARS - 80)}\n[cut: the app sent ${text.length.toLocaleString('en-US')} characters]`
      : text;
  return Object.fromEntries([...others.slice(-(MAX_APP_CONTEXTS - 1)), [toolUseId, { serverId, text: kept }]]);
}

/**
 * The system prompt section of what the apps of the thread's enabled servers said, or undefined when they said
 * nothing (a server switched off in the thread is not heard, as its app could not act either).
 */
export function appContextSection(
  contexts: AppContexts | undefined,
  enabledServerIds: readonly string[],
): string | undefined {
  const texts = Object.values(contexts ?? {})
    .filter((context) => enabledServerIds.includes(context.serverId) && context.text.trim())
    .map((context) => context.text);
  if (texts.length === 0) return undefined;
  return `# Context from the apps shown in this thread\n\nApps of the thread's MCP servers reported this (their own words, not the person's):\n\n${texts.join('\n\n')}`;
}
