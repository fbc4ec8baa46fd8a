import { describeError } from '../domain/errors';
import type { ChatActions, ChatStore } from './chat-store';
import { takeAttachments, type AttachmentDraft } from './attachment-draft';
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
  // Made first: what is in the box while it is made goes to it (followThreadDrafts).
  if (chat.getState().activeThreadId === undefined) {
    const problem = await actions.newThread().then(
      () => (chat.getState().activeThreadId === undefined ? 'it did not open' : undefined),
      (error: unknown) => describeError(error),
    );
    if (problem !== undefined) {
      // Nothing to send it to: the text goes back into the box (its attachments never left), and the notice says why.
      giveBackDraft(draft, attachments, { threadId: undefined, activeThreadId: undefined }, text, []);
      chat.setState({ notice: `A new thread for your message could not be made: ${problem}` });
      return;
    }
  }
  const threadId = chat.getState().activeThreadId;
  const taken = takeAttachments(attachments);
  const isStored = await actions.send(text, taken);
  if (isStored) return;
  giveBackDraft(draft, attachments, { threadId, activeThreadId: chat.getState().activeThreadId }, text, taken);
}
