import { useEffect, useRef } from 'react';
import type { PendingApproval } from '../../../stores/chat-store';
import { JsonView } from '../../components/json-view';
import { RenderBoundary } from '../../components/render-boundary';

/** Asks the person before a tool runs, showing what it would be called with. */
export function ApprovalCard({ approval }: { approval: PendingApproval }) {
  const { tool } = approval;
  const card = useRef<HTMLElement>(null);
  // The question comes into view when it is asked (clear of the docked message box: the column's scroll padding).
  useEffect(() => {
    card.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <section className="approval" aria-label={`Approve ${tool.toolName}`} ref={card} tabIndex={-1}>
      <p>
        <strong>{tool.serverName}</strong> (<code className="origin">{tool.trust.origin}</code>) wants to run{' '}
        <code>{tool.toolName}</code>
        {tool.annotations?.destructiveHint ? <span className="warning"> (it may change or delete data)</span> : null}
        {approval.caller?.kind === 'code' ? <span className="code-caller">, called from code</span> : null}
        {approval.caller?.kind === 'app' ? (
          <span className="app-caller">, requested by the app of {tool.serverName}</span>
        ) : null}
      </p>
      {approval.definitionChange && (
        <div className="definition-change" role="note">
          <p>
            <strong>Asked again: this tool changed since you allowed it.</strong>
          </p>
          <ul>
            {approval.definitionChange.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </div>
      )}
      {/* Only the arguments can fail to render: the answer buttons always stay. */}
      <RenderBoundary what="The arguments" rawText="(they cannot be shown; deny the call if unsure)">
        <JsonView className="arguments" value={approval.arguments} />
      </RenderBoundary>
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
