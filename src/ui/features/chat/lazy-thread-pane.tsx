import { Component, lazy, Suspense, type ReactNode } from 'react';
import { preloadMarkdown } from '../../components/markdown-loader';
import { Notice } from '../../components/notice';
import type ThreadPaneModule from './thread-pane';
import type { ThreadPaneProps } from './thread-pane';

let loading: Promise<{ default: typeof ThreadPaneModule }> | undefined;
/**
 * Fetches the thread pane's chunk (once), with the markdown renderer its messages use; start-up calls it beside its
 * own, so an opened thread shows at once and formatted.
 */
export const preloadThreadPane = () =>
  (loading ??= Promise.all([import('./thread-pane'), preloadMarkdown()]).then(([pane]) => pane));

const ThreadPane = lazy(preloadThreadPane);

/**
 * The open thread's header, messages and requests, from their own chunk; if it cannot be fetched (or the thread
 * cannot be drawn), says so in its place. Another thread starts afresh.
 */
export function LazyThreadPane(props: ThreadPaneProps) {
  return (
    <ThreadPaneBoundary key={props.thread.id}>
      <Suspense fallback={null}>
        <ThreadPane {...props} />
      </Suspense>
    </ThreadPaneBoundary>
  );
}

interface BoundaryState {
  readonly error?: string;
}

class ThreadPaneBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = {};

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <Notice tone="error" title="The thread could not be shown">
        <p>{this.state.error}</p>
        <p>
          Open another thread, or reload the page (its code may not have arrived: check the connection); nothing stored
          is lost.
        </p>
      </Notice>
    );
  }
}
