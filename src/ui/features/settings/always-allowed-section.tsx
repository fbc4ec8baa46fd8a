import { useCallback, useEffect, useId, useState } from 'react';
import type { AlwaysAllowedView } from '../../../stores/always-allowed';
import type { SettingsActions } from '../../../stores/settings-actions';

/** The tools that run without asking in every thread, with the server origin each approval was given to. */
export function AlwaysAllowedSection({ actions }: { actions: SettingsActions }) {
  const [approvals, setApprovals] = useState<readonly AlwaysAllowedView[]>();
  const [error, setError] = useState<string>();
  const heading = useId();
  const refresh = useCallback(
    () =>
      actions.alwaysAllowed().then(setApprovals, (cause: unknown) => {
        setApprovals([]);
        setError(String(cause));
      }),
    [actions],
  );
  useEffect(() => void refresh(), [refresh]);
  const revoke = async (approval: AlwaysAllowedView) => {
    setError(await actions.revokeAlwaysAllowed(approval.key));
    await refresh();
  };
  return (
    <section className="settings-card" aria-labelledby={heading}>
      <h3 id={heading}>Always allowed</h3>
      <p className="muted settings-help">
        Tools that run without asking. Each approval holds only for the server address (origin) it was given to.
      </p>
      {!approvals ? (
        <p role="status">Loading…</p>
      ) : approvals.length === 0 ? (
        <p className="muted">No tool is always allowed.</p>
      ) : (
        <ul className="always-allowed-list" aria-label="Always allowed tools">
          {approvals.map((approval) => (
            <li key={approval.key} aria-label={`${approval.toolName} of ${approval.serverName}`}>
              <span>
                <code>{approval.toolName}</code> of <strong>{approval.serverName}</strong> at{' '}
                <code className="origin">{approval.origin}</code>
                {approval.authKind !== 'none' && <span className="muted"> ({approval.authKind})</span>}
                {approval.isInert && <span className="muted"> (the server is no longer there: asks)</span>}
              </span>
              <button
                type="button"
                className="secondary small"
                onClick={() => void revoke(approval)}
                aria-label={`Revoke ${approval.toolName} of ${approval.serverName}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
