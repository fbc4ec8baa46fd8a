import type { TurnNewsChannel } from '../platform/turn-news';
import type { ChatState, ChatStore } from './chat-store';

/**
 * Tells the other tabs what this tab's turn waits for (the tool calls the person is asked about here), and hears what
 * the turn another tab runs in the open thread waits for, so that its calls show as waiting there, not as not run.
 * Returns a function that stops both.
 */
export function shareTurnNews(store: ChatStore, channel: TurnNewsChannel | undefined): () => void {
  if (!channel) return () => undefined;
  const awaitingHere = () => idsOf(store.getState().pendingApprovals);
  // Told on each change of the list, to empty too; never at a turn's start, so a tab that only tried to take a thread
  // up (another tab held it) says nothing over that tab's news.
  const stopWatching = store.subscribe((state, previous) => {
    if (state.pendingApprovals === previous.pendingApprovals) return; // Most changes: a streamed word.
    const threadId = state.runningThreadId ?? previous.runningThreadId;
    const [now, before] = [idsOf(state.pendingApprovals), idsOf(previous.pendingApprovals)];
    if (threadId !== undefined && now.join(' ') !== before.join(' '))
      channel.tell({ threadId, awaitingApproval: state.runningThreadId ? now : [] });
  });
  const stopAnswering = channel.onAsk((threadId) => {
    const { isRunning, runningThreadId, pendingApprovals } = store.getState();
    if (isRunning && runningThreadId === threadId && pendingApprovals.length > 0)
      channel.tell({ threadId, awaitingApproval: awaitingHere() });
  });
  const stopHearing = channel.onNews((news) => {
    if (store.getState().answeringElsewhere === news.threadId)
      store.setState({ awaitingElsewhere: news.awaitingApproval });
  });
  return () => {
    stopWatching();
    stopAnswering();
    stopHearing();
  };
}

const idsOf = (approvals: ChatState['pendingApprovals']): string[] => approvals.map((p) => p.toolUseId);
