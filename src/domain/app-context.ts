// What MCP Apps tell the model (ui/update-model-context): kept per thread, the latest per app, and added to the
// system prompt of the thread's next turns. Stored with the thread, so a reload does not lose it.

/** The most one app's context holds; longer text is cut, saying so. */
export const MAX_APP_CONTEXT_CHARS = 20_000;
/** The most apps of one thread whose context is kept: the ones that updated it last. */
export const MAX_APP_CONTEXTS = 10;

/** An app's context, by the tool call that showed the app. */
export type AppContexts = Readonly<Record<string, string>>;

/**
 * `contexts` with the app of `toolUseId` now saying `text` (cut to the limit), as the newest, the oldest dropped past
 * the limit; an empty text clears that app's context.
 */
export function withAppContext(contexts: AppContexts | undefined, toolUseId: string, text: string): AppContexts {
  const others = Object.entries(contexts ?? {}).filter(([id]) => id !== toolUseId);
  if (text.trim() === '') return Object.fromEntries(others);
  const kept =
    text.length > MAX_APP_CONTEXT_CHARS
      ? `${text.slice(0, MAX_APP_CONTEXT_CHARS - 80)}\n[cut: the app sent ${text.length.toLocaleString('en-US')} characters]`
      : text;
  return Object.fromEntries([...others.slice(-(MAX_APP_CONTEXTS - 1)), [toolUseId, kept]]);
}

/** The system prompt section of the thread's apps' context, or undefined when they gave none. */
export function appContextSection(contexts: AppContexts | undefined): string | undefined {
  const texts = Object.values(contexts ?? {}).filter((t) => t.trim());
  if (texts.length === 0) return undefined;
  return `# Context from the apps shown in this thread\n\nApps of the thread's MCP servers reported this (their own words, not the person's):\n\n${texts.join('\n\n')}`;
}
