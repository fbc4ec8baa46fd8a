import { isPersonMessage } from '../domain/branches';
import { describeError } from '../domain/errors';
import type { Message } from '../domain/message';
import type { AttachmentRef } from '../domain/attachment';
import type { Storage } from '../storage/storage';
import {
  regenerateTurn,
  sendMessage,
  type OutgoingAttachment,
  type SendOptions,
  type TurnRunnerDeps,
} from '../turns/turn-runner';
import type { ChatStore } from './chat-store';
import type { ChatTurn } from './chat-turn';
import { isAnsweredElsewhere } from './other-tab-turn';

/** Edit, regenerate and the choice between versions of a message (issue #22). */
export interface BranchActions {
  /**
   * Sends `text` in place of the person's message `messageId`: a new branch from there, with a new answer. The
   * message's attachments go with it, or only those named in `keptAttachmentIds`.
   */
  editMessage(messageId: string, text: string, keptAttachmentIds?: readonly string[]): Promise<void>;
  /** A new answer to the person's message the answer `answerId` replies to, on a new branch. */
  regenerate(answerId: string): Promise<void>;
  /** Shows the branch through `messageId` (a version of a message on the shown branch). */
  showVersion(messageId: string): Promise<void>;
}

export interface BranchContext {
  readonly store: ChatStore;
  readonly deps: TurnRunnerDeps;
  readonly runInThread: (threadId: string, start: (options: SendOptions) => Promise<unknown>) => Promise<void>;
  readonly loadMessages: (threadId: string) => Promise<readonly Message[]>;
  readonly savePreview: ChatTurn['savePreview'];
}

/** The branch actions of the open thread; none of them starts while a turn runs. */
export function createBranchActions({
  store,
  deps,
  runInThread,
  loadMessages,
  savePreview,
}: BranchContext): BranchActions {
  /** The open thread and its shown messages, when no turn runs (here, or in another tab). */
  const idle = () => {
    const { activeThreadId, isRunning, messages } = store.getState();
    return activeThreadId && !isRunning && !isAnsweredElsewhere(store.getState())
      ? { threadId: activeThreadId, messages }
      : undefined;
  };
  /**
   * Shows the branch only up to `count` messages: the turn's new messages follow them as they come. The messages cut
   * stay stored on their branch, so they count in the thread's total meanwhile (they were paid for).
   */
  const cutTo = (messages: readonly Message[], count: number) =>
    store.setState((state) => ({
      messages: messages.slice(0, count),
      offBranch: [...state.offBranch, ...messages.slice(count)],
      versions: new Map(),
    }));

  return {
    async editMessage(messageId, text, keptAttachmentIds) {
      const open = idle();
      const at = open?.messages.findIndex((m) => m.id === messageId) ?? -1;
      if (!open || at < 0 || !text.trim() || !isPersonMessage(open.messages[at]!)) return;
      const after = open.messages[at - 1]?.id ?? null;
      const refs = (open.messages[at]!.attachments ?? []).filter(
        (ref) => !keptAttachmentIds || keptAttachmentIds.includes(ref.id),
      );
      cutTo(open.messages, at);
      await runInThread(open.threadId, async (options) => {
        // The edited message keeps the attachments not removed (their bytes are read again; one whose bytes are gone
        // is left out).
        const kept = await keptAttachments(deps.storage, refs);
        return sendMessage(deps, open.threadId, text.trim(), { ...options, after, attachments: kept });
      });
    },
    async regenerate(answerId) {
      const open = idle();
      const at = open?.messages.findIndex((m) => m.id === answerId) ?? -1;
      if (!open || at < 0) return;
      const person = open.messages.slice(0, at).findLastIndex(isPersonMessage);
      const personId = open.messages[person]?.id;
      if (personId === undefined) return;
      cutTo(open.messages, person + 1);
      await runInThread(open.threadId, (options) => regenerateTurn(deps, open.threadId, personId, options));
    },
    async showVersion(messageId) {
      const open = idle();
      if (!open) return;
      try {
        await deps.storage.messages.showBranch(open.threadId, messageId);
      } catch (error) {
        store.setState({ notice: describeError(error) });
      }
      // The list's line under the thread reads the branch shown now; the thread keeps its place (no activity).
      await savePreview(open.threadId, await loadMessages(open.threadId), { isActivity: false });
    },
  };
}

/** The attachments of a message, with their stored bytes, to send again with its edit. */
async function keptAttachments(storage: Storage, refs: readonly AttachmentRef[]): Promise<OutgoingAttachment[]> {
  const read = await Promise.all(refs.map(async (ref) => ({ ref, blob: await storage.attachments.get(ref.id) })));
  return read.flatMap(({ ref, blob }) => (blob ? [{ ref, blob }] : []));
}
