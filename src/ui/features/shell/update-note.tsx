import { useSyncExternalStore } from 'react';
import type { AppUpdates } from '../../../domain/app-shell';
import './update-note.css';

const NO_UPDATES: AppUpdates = { subscribe: () => () => undefined, isReady: () => false, apply: () => undefined };

/**
 * Says that a new version of the app is installed and waiting; it takes over only when the person reloads into it
 * (never by itself, so an answer being written is not cut off). While a turn runs, the button waits for its end.
 */
export function UpdateNote({ updates = NO_UPDATES, isBusy }: { updates?: AppUpdates | undefined; isBusy: boolean }) {
  const isReady = useSyncExternalStore(updates.subscribe, updates.isReady, () => false);
  if (!isReady) return null;
  return (
    <section className="update-note" role="status" aria-label="App update">
      <p>
        A new version of MCP Agent is ready.{' '}
        {isBusy ? 'You can reload into it once this answer is done.' : 'Reload to use it; your threads stay.'}
      </p>
      <button type="button" onClick={() => updates.apply()} disabled={isBusy}>
        Reload to update
      </button>
    </section>
  );
}
