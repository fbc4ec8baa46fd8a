import { describeError } from '../domain/errors';
import type { ChatActions, ChatStore } from './chat-store';
import { takeAttachments, type AttachmentDraft, type PendingAttachment } from './attachment-draft';
import { giveBackDraft, type DraftStore } from './draft';

/**
 * Sends the composer's text with its attachments, in a new thread when none is open (the first message of a first
 * run, or after the open thread was deleted). When the message was not stored (a full disk refused it or its bytes),
 * the text and the attachments go back into the draft of the thread it was written in, so nothing the person gave is lost;
 * the send lasts the whole turn, and the person may have opened another thread by then.
 */
export async function sendWithAttachments(
  actions: ChatActions,
  chat: ChatStore,
  draft: DraftStore,
  attachments: AttachmentDraft,
  text: string,
): Promise<void> {
  if (chat.getState().activeThreadId === undefined) {
    // Taken first: while the thread is made, the box follows whatever thread the person opens.
    const taken = takeAttachments(attachments);
    const made = await actions.newThread().then(
      // Made but not open (and no other open either): it did not open, whatever the reason.
      (id) => ({
        id,
        problem: id === undefined || chat.getState().activeThreadId === undefined ? 'it did not open' : undefined,
      }),
      (error: unknown) => ({ id: undefined, problem: describeError(error) }),
    );
    if (made.problem !== undefined) {
      // Nothing to send it to: the message goes back into the box, and the notice says why.
      giveBackDraft(draft, attachments, { threadId: undefined, activeThreadId: undefined }, text, taken);
      chat.setState({ notice: `A new thread for your message could not be made: ${made.problem}` });
      return;
    }
    if (chat.getState().activeThreadId !== made.id) {
      // The person opened another thread while it was made: the message was not meant for that one, and the new
      // thread, left empty, is gone. It goes back into the box the person sees.
      giveBackDraft(draft, attachments, { threadId: undefined, activeThreadId: undefined }, text, taken);
      chat.setState({ notice: NOT_SENT_ELSEWHERE });
      return;
    }
    return sendIn(actions, chat, draft, attachments, text, taken);
  }
  return sendIn(actions, chat, draft, attachments, text, takeAttachments(attachments));
}

/** Shown when another thread was opened while a new one was made for the message. */
export const NOT_SENT_ELSEWHERE =
  'Your message was not sent, because another thread was opened while a new one was being made for it. It is back in the message box: send it again here, or use New thread.';

async function sendIn(
  actions: ChatActions,
  chat: ChatStore,
  draft: DraftStore,
  attachments: AttachmentDraft,
  text: string,
  taken: PendingAttachment[],
): Promise<void> {
  const threadId = chat.getState().activeThreadId;
  const isStored = await actions.send(text, taken);
  if (isStored) return;
  giveBackDraft(draft, attachments, { threadId, activeThreadId: chat.getState().activeThreadId }, text, taken);
}
