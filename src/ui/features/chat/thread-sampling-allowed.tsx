import { useState } from 'react';
import type { ThreadConfig } from '../../../domain/thread-config';
import type { ThreadToolChoiceActions } from '../../../stores/thread-tool-choices';
import type { ServerView } from '../../../stores/servers-store';

/**
 * The servers whose sampling requests run in this thread without asking ("Allow for this thread" on a request card),
 * each with "Stop allowing": the way to revoke it at any time, also after a reload. Nothing shows when there are none.
 */
export function ThreadSamplingAllowed({
  thread,
  servers,
  actions,
}: {
  thread: ThreadConfig;
  servers: readonly ServerView[];
  actions: Pick<ThreadToolChoiceActions, 'stopAllowingSampling'>;
}) {
  const [error, setError] = useState<string>();
  const allowed = Object.keys(thread.samplingAllowed ?? {});
  if (allowed.length === 0) return null;
  const nameOf = (serverId: string) => servers.find((s) => s.id === serverId)?.name ?? serverId;
  return (
    <section className="thread-settings sampling-allowed" aria-labelledby={`sampling-allowed-${thread.id}`}>
      <h3 id={`sampling-allowed-${thread.id}`}>Sampling allowed in this thread</h3>
      <ul>
        {allowed.map((serverId) => (
          <li key={serverId}>
            <span>{nameOf(serverId)} runs model calls here without asking.</span>{' '}
            <button
              type="button"
              className="secondary small"
              aria-label={`Stop allowing sampling for ${nameOf(serverId)}`}
              onClick={() => void actions.stopAllowingSampling(thread.id, serverId).then(setError)}
            >
              Stop allowing
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
    </section>
  );
}
