import { logFailure, type Logger } from '../domain/logger';
import type { Message } from '../domain/message';
import type { PromptTurnMessage } from '../domain/prompt-blocks';
import {
  retryTurn,
  sendMessage,
  sendPromptMessages,
  type OutgoingAttachment,
  type TurnRunnerDeps,
} from '../turns/turn-runner';
import type { ChatStore } from './chat-store';
import { isAnsweredElsewhere } from './other-tab-turn';
import type { ChatTurn } from './chat-turn';
import { titleFrom, UNTITLED } from './thread-lifecycle';

/** What starts a turn in the open thread: the person's message, a server prompt, or a Retry. */
export interface ChatSendActions {
  /**
   * Sends the person's message with its attachments (bytes stored first); a refused store is the notice. Resolves, at
   * the end of the turn, to whether the person's message was stored (false also when nothing was sent).
   */
  send(text: string, attachments?: readonly OutgoingAttachment[]): Promise<boolean>;
  /**
   * Sends a server prompt's messages as the turn (their roles and content kept); `title` names an untitled thread.
   * Resolves to false at once when no turn may start (a turn runs in the thread, here or in another tab), else to true
   * at the end of the turn.
   */
  sendPrompt(messages: readonly PromptTurnMessage[], title: string): Promise<boolean>;
  /** Runs the open thread's failed turn again (its last message is a failed answer), without repeating the person's message. */
  retry(): Promise<void>;
}

export interface ChatSendContext {
  readonly store: ChatStore;
  readonly deps: TurnRunnerDeps;
  readonly logger: Logger;
  readonly runInThread: ChatTurn['runInThread'];
  readonly refreshThreads: () => Promise<void>;
}

export function chatSendActions({
  store,
  deps,
  logger,
  runInThread,
  refreshThreads,
}: ChatSendContext): ChatSendActions {
  const { storage } = deps;
  return {
    async send(text, attachments = []) {
      const threadId = store.getState().activeThreadId;
      if (
        !threadId ||
        store.getState().isRunning ||
        isAnsweredElsewhere(store.getState()) ||
        (!text.trim() && attachments.length === 0)
      )
        return false;
      const thread = store.getState().threads.find((t) => t.id === threadId);
      // The turn's first person message is this one, told as it is stored (whichever thread is open by then).
      let isStored = false;
      // Titled inside the run: the thread counts as running from the first moment, so a second send or a Retry waits.
      await runInThread(threadId, async (options) => {
        if (thread?.title === UNTITLED) {
          await storage.threads
            .rename(threadId, titleFrom(text.trim() ? text : (attachments[0]?.ref.name ?? '')))
            .catch(logFailure(logger, 'Titling the thread failed', { threadId }));
          await refreshThreads();
        }
        const onMessage = (message: Message) => {
          isStored ||= message.role === 'user';
          options.onMessage?.(message);
        };
        return sendMessage(deps, threadId, text.trim(), { ...options, attachments, onMessage });
      });
      return isStored;
    },
    async sendPrompt(messages, title) {
      const threadId = store.getState().activeThreadId;
      if (!threadId || store.getState().isRunning || isAnsweredElsewhere(store.getState()) || messages.length === 0)
        return false;
      const thread = store.getState().threads.find((t) => t.id === threadId);
      await runInThread(threadId, async (options) => {
        if (thread?.title === UNTITLED)
          await storage.threads
            .rename(threadId, titleFrom(title))
            .then(() => refreshThreads())
            .catch(logFailure(logger, 'Titling the thread failed', { threadId }));
        return sendPromptMessages(deps, threadId, messages, options);
      });
      return true;
    },
    async retry() {
      const threadId = store.getState().activeThreadId;
      // Not while another tab answers in the thread: this turn would wait for that one, then run as a second.
      if (!threadId || store.getState().isRunning || isAnsweredElsewhere(store.getState())) return;
      await runInThread(threadId, (options) => retryTurn(deps, threadId, options));
    },
  };
}
