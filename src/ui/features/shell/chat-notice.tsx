import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import { Notice } from '../../components/notice';
import { useStore } from '../../hooks/use-store';

/**
 * The chat's storage problems (a full disk, skipped unreadable records) and its notes (a limit, a thread deleted in
 * another tab), shown until the person dismisses them.
 */
export function ChatNotice({
  chat,
  actions,
}: {
  chat: ChatStore;
  actions: Pick<ChatActions, 'dismissNotice' | 'dismissNote'>;
}) {
  const notice = useStore(chat, (s) => s.notice);
  const note = useStore(chat, (s) => s.note);
  const dismiss = (hide: () => void) => (
    <button type="button" className="secondary small" onClick={hide}>
      Dismiss
    </button>
  );
  return (
    <>
      {notice && (
        <Notice tone="error" title="Storage problem">
          <p>{notice}</p>
          {dismiss(() => actions.dismissNotice())}
        </Notice>
      )}
      {note && (
        <Notice tone="info" title="Note">
          <p>{note}</p>
          {dismiss(() => actions.dismissNote())}
        </Notice>
      )}
    </>
  );
}
