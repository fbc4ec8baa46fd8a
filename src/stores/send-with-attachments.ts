import type { ChatActions, ChatStore } from './chat-store';
import { restoreAttachments, takeAttachments, type AttachmentDraft } from './attachment-draft';
import { setDraft, type DraftStore } from './draft';

/**
 * Sends the composer's text with its attachments. When the message was not stored (a full disk refused the bytes), the
 * attachments and the text go back into the composer, so nothing the person gave is lost.
 */
export async function sendWithAttachments(
  actions: ChatActions,
  chat: ChatStore,
  draft: DraftStore,
  attachments: AttachmentDraft,
  text: string,
): Promise<void> {
  const taken = takeAttachments(attachments);
  await actions.send(text, taken);
  const first = taken[0];
  if (!first) return;
  const isStored = chat.getState().messages.some((m) => m.attachments?.some((a) => a.id === first.ref.id));
  if (isStored) return;
  restoreAttachments(attachments, taken);
  if (!draft.getState().text) setDraft(draft, text);
}
