import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Notice } from '../../components/notice';

/** Loaded on first open: the first screen (threads and the composer) does not need them. */
export const ServersPanel = lazy(() => import('../servers/servers-panel').then((m) => ({ default: m.ServersPanel })));
export const SettingsPanel = lazy(() =>
  import('../settings/settings-panel').then((m) => ({ default: m.SettingsPanel })),
);

interface BoundaryState {
  readonly error?: string;
}

/** Shows a panel loaded on demand; if its code cannot be fetched (offline, a redeploy), says so in place of the panel. */
export class LazyPanel extends Component<{ name: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = {};

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  override render() {
    if (this.state.error !== undefined) {
      return (
        <Notice tone="error" title={`${this.props.name} could not be shown`}>
          <p>{this.state.error}</p>
          <p>Check the connection and reload the page; nothing stored is lost.</p>
        </Notice>
      );
    }
    return (
      <Suspense
        fallback={
          <p role="status" className="muted">
            Loading {this.props.name}…
          </p>
        }
      >
        {this.props.children}
      </Suspense>
    );
  }
}
