import { lazy, type ReactNode } from 'react';
import { LazyBoundary } from '../../components/lazy-boundary';

/** Loaded on first open: the first screen (threads and the composer) does not need them. */
export const ServersPanel = lazy(() => import('../servers/servers-panel').then((m) => ({ default: m.ServersPanel })));
export const SettingsPanel = lazy(() =>
  import('../settings/settings-panel').then((m) => ({ default: m.SettingsPanel })),
);

/** Shows a panel loaded on demand; if its code cannot be fetched (offline, a redeploy), says so in place of the panel. */
export function LazyPanel({ name, children }: { name: string; children: ReactNode }) {
  return (
    <LazyBoundary
      title={`${name} could not be shown`}
      hint="Check the connection and reload the page; nothing stored is lost."
      fallback={
        <p role="status" className="muted">
          Loading {name}…
        </p>
      }
    >
      {children}
    </LazyBoundary>
  );
}
