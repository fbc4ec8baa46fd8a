import { Component, Suspense, type ReactNode } from 'react';
import { Notice } from './notice';

interface LazyBoundaryProps {
  /** The notice's title when it cannot be shown ("Settings could not be shown"). */
  readonly title: string;
  /** What the person can do about it. */
  readonly hint: string;
  /** Shown while its code loads. */
  readonly fallback: ReactNode;
  readonly children: ReactNode;
}

interface BoundaryState {
  readonly error?: string;
}

/** Shows a part loaded on demand; if its code cannot be fetched (offline, a redeploy), says so in its place. */
export class LazyBoundary extends Component<LazyBoundaryProps, BoundaryState> {
  override state: BoundaryState = {};

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  override render() {
    if (this.state.error === undefined)
      return <Suspense fallback={this.props.fallback}>{this.props.children}</Suspense>;
    return (
      <Notice tone="error" title={this.props.title}>
        <p>{this.state.error}</p>
        <p>{this.props.hint}</p>
      </Notice>
    );
  }
}
