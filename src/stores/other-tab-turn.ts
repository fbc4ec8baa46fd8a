import type { StoreApi } from 'zustand/vanilla';

/** What following another tab's turn reads and sets of the chat's state. */
interface FollowedState {
  readonly activeThreadId?: string;
  readonly isRunning: boolean;
  readonly runningThreadId?: string;
  /** The open thread, while another tab writes its answer: Send waits, and a note says where the answer is. */
  readonly answeringElsewhere?: string;
  /** The tool calls of that answer that wait for the person's approval in the other tab (turn-news-sharing.ts). */
  readonly awaitingElsewhere?: readonly string[];
}

export interface OtherTabTurnDeps<S extends FollowedState> {
  readonly store: StoreApi<S>;
  /** Whether no tab runs a turn in the thread now. */
  readonly isFree: (threadId: string) => Promise<boolean>;
  /** Resolves when the turn running in the thread has ended (the browser frees its lock with a closed tab too). */
  readonly whenFree: (threadId: string) => Promise<void>;
  /** Takes the thread up again: reads its messages (the other tab's answer as stored in the end), goes on with calls left. */
  readonly reload: (threadId: string) => Promise<void>;
  /** Asks the tab answering in the thread what its turn waits for (its answer reaches `awaitingElsewhere`). */
  readonly ask?: (threadId: string) => void;
}

/** Whether another tab answers in the open thread now: no turn may start in it here (it would run after that one). */
export function isAnsweredElsewhere(state: FollowedState): boolean {
  return state.answeringElsewhere !== undefined && state.answeringElsewhere === state.activeThreadId;
}

/**
 * Another tab answering in the thread open here: without this, a message sent here waited unseen behind that turn
 * (the box emptied, nothing showed, closing this tab lost it). Checked when the thread opens and when another tab
 * writes in it; marked until that turn ends, then the thread is read again. A turn of this tab is its own, not this.
 */
export function followOtherTabTurn<S extends FollowedState>(deps: OtherTabTurnDeps<S>): (threadId: string) => void {
  const { store } = deps;
  const following = new Set<string>();
  const isOwnTurn = (threadId: string) => store.getState().isRunning && store.getState().runningThreadId === threadId;
  const follow = async (threadId: string) => {
    following.add(threadId);
    try {
      if (isOwnTurn(threadId) || (await deps.isFree(threadId))) return;
      if (store.getState().activeThreadId === threadId && !isOwnTurn(threadId)) {
        store.setState({ answeringElsewhere: threadId, awaitingElsewhere: undefined } as Partial<S>);
        deps.ask?.(threadId);
      }
      await deps.whenFree(threadId);
    } finally {
      following.delete(threadId);
    }
    if (store.getState().answeringElsewhere === threadId)
      store.setState({ answeringElsewhere: undefined, awaitingElsewhere: undefined } as Partial<S>);
    if (store.getState().activeThreadId === threadId && !store.getState().isRunning) await deps.reload(threadId);
  };
  return (threadId) => {
    if (!following.has(threadId)) void follow(threadId);
  };
}
