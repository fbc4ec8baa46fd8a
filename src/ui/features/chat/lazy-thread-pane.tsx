import { lazy } from 'react';
import { LazyBoundary } from '../../components/lazy-boundary';
import { preloadMarkdown } from '../../components/markdown-loader';
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
    <LazyBoundary
      key={props.thread.id}
      title="The thread could not be shown"
      hint="Open another thread, or reload the page (its code may not have arrived: check the connection); nothing stored is lost."
      fallback={null}
    >
      <ThreadPane {...props} />
    </LazyBoundary>
  );
}
