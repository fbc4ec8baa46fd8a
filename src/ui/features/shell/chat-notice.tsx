import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import { Notice } from '../../components/notice';
import { useStore } from '../../hooks/use-store';

/** The chat's storage problems (a full disk, skipped unreadable records), shown until the person dismisses them. */
export function ChatNotice({ chat, actions }: { chat: ChatStore; actions: Pick<ChatActions, 'dismissNotice'> }) {
  const notice = useStore(chat, (s) => s.notice);
  if (!notice) return null;
  return (
    <Notice tone="error" title="Storage problem">
      <p>{notice}</p>
      <button type="button" className="secondary small" onClick={() => actions.dismissNotice()}>
        Dismiss
      </button>
    </Notice>
  );
}
