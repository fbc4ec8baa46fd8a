import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import { Notice } from '../../components/notice';
import { useStore } from '../../hooks/use-store';

/**
 * The chat's storage problems (a full disk, skipped unreadable records) and its notes (a limit, a thread deleted in
 * another tab), shown until the person dismisses them.
 */
export function ChatNotice({ chat, actions }: { chat: ChatStore; actions: Pick<ChatActions, 'dismissNotice'> }) {
  const notice = useStore(chat, (s) => s.notice);
  const note = useStore(chat, (s) => s.note);
  if (!notice && !note) return null;
  const dismiss = (
    <button type="button" className="secondary small" onClick={() => actions.dismissNotice()}>
      Dismiss
    </button>
  );
  return (
    <>
      {notice && (
        <Notice tone="error" title="Storage problem">
          <p>{notice}</p>
          {dismiss}
        </Notice>
      )}
      {note && (
        <Notice tone="info" title="Note">
          <p>{note}</p>
          {!notice && dismiss}
        </Notice>
      )}
    </>
  );
}
