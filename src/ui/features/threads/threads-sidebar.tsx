import type { ChatActions, ChatStore } from '../../../stores/chat-store';
import { useStore } from '../../hooks/use-store';
import { ThreadList } from './thread-list';
import './threads.css';

/** The thread list bound to the chat store. */
export function ThreadsSidebar({ chat, actions }: { chat: ChatStore; actions: ChatActions }) {
  const threads = useStore(chat, (s) => s.threads);
  const activeId = useStore(chat, (s) => s.activeThreadId);
  return (
    <ThreadList
      threads={threads}
      activeId={activeId}
      onNew={() => void actions.newThread()}
      onOpen={(id) => void actions.openThread(id)}
      onDelete={(id) => void actions.deleteThread(id)}
      onRename={(id, title) => actions.renameThread(id, title)}
    />
  );
}
