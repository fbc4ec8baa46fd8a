import { lazy, type ComponentProps } from 'react';
import { LazyBoundary } from '../../components/lazy-boundary';
import { SidebarPlaceholder } from '../shell/sidebar-placeholder';
import type { ThreadsSidebar as ThreadsSidebarComponent } from './threads-sidebar';

let loading: Promise<{ default: typeof ThreadsSidebarComponent }> | undefined;
/**
 * Fetches the thread list's chunk (once; it holds the virtual list, which the first screen does without); start-up
 * calls it beside its own, so the list shows as soon as the threads are read.
 */
export const preloadThreadsSidebar = () =>
  (loading ??= import('./threads-sidebar').then((module) => ({ default: module.ThreadsSidebar })));

const ThreadsSidebar = lazy(preloadThreadsSidebar);

/** The thread list from its own chunk; the placeholder until it arrives, and a notice if it cannot be fetched. */
export function LazyThreadsSidebar(props: ComponentProps<typeof ThreadsSidebarComponent>) {
  return (
    <LazyBoundary
      title="The thread list could not be shown"
      hint="Reload the page (its code may not have arrived: check the connection); nothing stored is lost."
      fallback={<SidebarPlaceholder />}
    >
      <ThreadsSidebar {...props} />
    </LazyBoundary>
  );
}
