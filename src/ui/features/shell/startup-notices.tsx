import { serverIdOfKey, toolNameOfKey } from '../../../domain/approval-keys';
import type { AppStore } from '../../../stores/app-store';
import { Notice } from '../../components/notice';
import { useStore } from '../../hooks/use-store';
import { ChatNotice } from './chat-notice';

/** Problems found at start (an invalid app-config.json, servers that could not be loaded) and the chat's storage problems. */
export function StartupNotices({ store }: { store: AppStore }) {
  const appConfig = useStore(store, (s) => s.appConfig);
  const serverProblems = useStore(store, (s) => s.serverProblems);
  const droppedApprovals = useStore(store, (s) => s.droppedApprovals);
  const chat = useStore(store, (s) => s.chat);
  const chatActions = useStore(store, (s) => s.chatActions);
  return (
    <>
      {chat && chatActions && <ChatNotice chat={chat} actions={chatActions} />}
      {appConfig?.error && (
        <Notice tone="warning" title="The deployment's app-config.json is invalid; running without app servers">
          <ul>
            {appConfig.error.issues.map((issue) => (
              <li key={`${issue.path}:${issue.message}`}>
                {issue.path && <code>{issue.path}</code>} {issue.message}
              </li>
            ))}
          </ul>
        </Notice>
      )}
      {appConfig?.notice && <Notice tone="info" title={appConfig.notice} />}
      {serverProblems.length > 0 && (
        <Notice tone="warning" title="Some servers need attention">
          <ul>
            {serverProblems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Notice>
      )}
      {droppedApprovals && droppedApprovals.length > 0 && (
        <Notice tone="info" title="Some approvals were removed: they did not record which server address they trusted">
          <p>You will be asked again before these tools run:</p>
          <ul>
            {droppedApprovals.map(({ key, place }) => (
              <li key={`${place}:${key}`}>
                <code>{toolNameOfKey(key)}</code> of server <code>{serverIdOfKey(key)}</code> ({place})
              </li>
            ))}
          </ul>
        </Notice>
      )}
    </>
  );
}
