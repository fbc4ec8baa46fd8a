import type { AppConfirmation, AppPendingApproval, McpAppsStore } from '../../../../stores/mcp-apps';
import { useStoreIfAny } from '../../../hooks/use-store';
import { ApprovalCard } from '../approval-card';

const NO_APPROVALS: readonly AppPendingApproval[] = [];
const NO_CONFIRMATIONS: readonly AppConfirmation[] = [];

/**
 * What the apps of the thread's cards ask the person (issue #21): tool calls to approve, messages and links to
 * confirm; another thread's requests stay in that thread.
 */
export function AppRequests({ store, threadId }: { store: McpAppsStore | undefined; threadId: string }) {
  const approvals = useStoreIfAny(store, (s) => s.approvals, NO_APPROVALS);
  const confirmations = useStoreIfAny(store, (s) => s.confirmations, NO_CONFIRMATIONS);
  return (
    <>
      {approvals
        .filter((approval) => approval.threadId === threadId)
        .map((approval) => (
          <ApprovalCard key={approval.toolUseId} approval={approval} />
        ))}
      {confirmations
        .filter((confirmation) => confirmation.threadId === threadId)
        .map((confirmation) => (
          <AppConfirmationCard key={confirmation.id} confirmation={confirmation} />
        ))}
    </>
  );
}

/** Asks before an app's message goes into the thread, or before its link opens (with the link's origin shown). */
function AppConfirmationCard({ confirmation }: { confirmation: AppConfirmation }) {
  const isLink = confirmation.kind === 'link';
  return (
    <section
      className="approval app-confirmation"
      aria-label={
        isLink
          ? `Open a link of the app of ${confirmation.serverName}`
          : `Message from the app of ${confirmation.serverName}`
      }
    >
      {isLink ? (
        <>
          <p>
            The app of <strong>{confirmation.serverName}</strong> wants to open a page of{' '}
            <code className="origin">{confirmation.origin}</code>
          </p>
          <p className="muted">
            <code>{confirmation.text}</code>
          </p>
        </>
      ) : (
        <>
          <p>
            The app of <strong>{confirmation.serverName}</strong> wants to send this message into the thread:
          </p>
          <blockquote className="user-text">{confirmation.text}</blockquote>
        </>
      )}
      <div className="approval-actions">
        <button type="button" onClick={() => confirmation.answer(true)}>
          {isLink ? 'Open the page' : 'Send the message'}
        </button>
        <button type="button" className="danger" onClick={() => confirmation.answer(false)}>
          {isLink ? 'Stay here' : 'Do not send'}
        </button>
      </div>
    </section>
  );
}
