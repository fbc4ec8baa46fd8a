/** What a tab running a turn tells the other tabs: its thread, and the tool calls that wait there for the person. */
export interface TurnNews {
  readonly threadId: string;
  /** The tool_use ids the person is asked about in that tab now (empty: none). */
  readonly awaitingApproval: readonly string[];
}

/**
 * News of the turns running in this origin's tabs. Whether a turn still runs is the thread's turn lock, which the
 * browser frees with a closed tab; this only says what the turn waits for, which no lock can tell.
 */
export interface TurnNewsChannel {
  /** Tells the other tabs where this tab's turn stands. */
  tell(news: TurnNews): void;
  /** Asks the tab running a turn in `threadId` (if any) to tell where it stands. */
  ask(threadId: string): void;
  /** Calls `listener` with each other tab's news; returns a function that stops it. */
  onNews(listener: (news: TurnNews) => void): () => void;
  /** Calls `listener` with each thread another tab asks about; returns a function that stops it. */
  onAsk(listener: (threadId: string) => void): () => void;
  close(): void;
}

/** The BroadcastChannel this origin's tabs tell each other of their turns on. */
export const TURN_NEWS_CHANNEL = 'mcp-agent-turns';

type Said = { readonly kind: 'news'; readonly news: TurnNews } | { readonly kind: 'ask'; readonly threadId: string };

/** Turn news over BroadcastChannel; without one (a browser that lacks it), nobody hears and nothing is told. */
export function createTurnNewsChannel(channel: BroadcastChannel | undefined): TurnNewsChannel {
  const newsListeners = new Set<(news: TurnNews) => void>();
  const askListeners = new Set<(threadId: string) => void>();
  const onMessage = (event: MessageEvent<unknown>) => {
    const said = readSaid(event.data);
    if (said?.kind === 'news') for (const listener of newsListeners) listener(said.news);
    if (said?.kind === 'ask') for (const listener of askListeners) listener(said.threadId);
  };
  channel?.addEventListener('message', onMessage);
  let isClosed = false;
  // A closed channel throws on postMessage: a turn that ends after (a profile switch) has no one to tell.
  const say = (said: Said) => {
    if (!isClosed) channel?.postMessage(said);
  };
  return {
    tell: (news) =>
      say({ kind: 'news', news: { threadId: news.threadId, awaitingApproval: [...news.awaitingApproval] } }),
    ask: (threadId) => say({ kind: 'ask', threadId }),
    onNews(listener) {
      newsListeners.add(listener);
      return () => newsListeners.delete(listener);
    },
    onAsk(listener) {
      askListeners.add(listener);
      return () => askListeners.delete(listener);
    },
    close() {
      isClosed = true;
      newsListeners.clear();
      askListeners.clear();
      channel?.removeEventListener('message', onMessage);
      channel?.close();
    },
  };
}

/** A message of another tab, checked: another version of the app may say something else on the channel. */
function readSaid(data: unknown): Said | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const said = data as { kind?: unknown; threadId?: unknown; news?: unknown };
  if (said.kind === 'ask' && typeof said.threadId === 'string') return { kind: 'ask', threadId: said.threadId };
  if (said.kind !== 'news' || typeof said.news !== 'object' || said.news === null) return undefined;
  const { threadId, awaitingApproval } = said.news as { threadId?: unknown; awaitingApproval?: unknown };
  if (typeof threadId !== 'string' || !Array.isArray(awaitingApproval)) return undefined;
  if (!awaitingApproval.every((id): id is string => typeof id === 'string')) return undefined;
  return { kind: 'news', news: { threadId, awaitingApproval } };
}
