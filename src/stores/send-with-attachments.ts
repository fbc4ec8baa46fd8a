import type { ChatActions, ChatStore } from './chat-store';
import { takeAttachments, type AttachmentDraft } from './attachment-draft';
import { giveBackDraft, type DraftStore } from './draft';

/**
 * Sends the composer's text with its attachments. When the message was not stored (a full disk refused the bytes), the
 * attachments and the text go back into that thread's draft, so nothing the person gave is lost. Whether it was stored
 * is read while the thread is still open: the send lasts the whole turn, and the person may open another thread.
 */
export async function sendWithAttachments(
  actions: ChatActions,
  chat: ChatStore,
  draft: DraftStore,
  attachments: AttachmentDraft,
  text: string,
): Promise<void> {
  const threadId = chat.getState().activeThreadId;
  const taken = takeAttachments(attachments);
  const first = taken[0];
  const isShown = () =>
    chat.getState().activeThreadId === threadId &&
    chat.getState().messages.some((m) => m.attachments?.some((a) => a.id === first?.ref.id));
  let isStored = false;
  const stopWatching = first ? chat.subscribe(() => (isStored ||= isShown())) : () => undefined;
  try {
    await actions.send(text, taken);
  } finally {
    stopWatching();
  }
  if (!first || isStored || isShown()) return;
  giveBackDraft(draft, attachments, { threadId, activeThreadId: chat.getState().activeThreadId }, text, taken);
}
