import type { PendingApproval } from '../../../stores/chat-store';

/** Asks the person before a tool runs, showing what it would be called with. */
export function ApprovalCard({ approval }: { approval: PendingApproval }) {
  const { tool } = approval;
  return (
    <section className="approval" aria-label={`Approve ${tool.toolName}`}>
      <p>
        <strong>{tool.serverName}</strong> (<code className="origin">{tool.trust.origin}</code>) wants to run{' '}
        <code>{tool.toolName}</code>
        {tool.annotations?.destructiveHint ? <span className="warning"> (it may change or delete data)</span> : null}
      </p>
      <pre className="arguments">{JSON.stringify(approval.arguments, null, 2)}</pre>
      <div className="approval-actions">
        <button type="button" onClick={() => approval.answer('allow-once')}>
          Allow once
        </button>
        <button type="button" onClick={() => approval.answer('allow-thread')}>
          Allow for this thread
        </button>
        <button type="button" onClick={() => approval.answer('allow-always')}>
          Always allow
        </button>
        <button type="button" className="danger" onClick={() => approval.answer('deny')}>
          Deny
        </button>
      </div>
    </section>
  );
}
