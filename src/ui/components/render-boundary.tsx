import { Component, type ReactNode } from 'react';

export interface RenderBoundaryProps {
  /** What failed to render, for the note: "This message", "This tool call". */
  readonly what: string;
  /** The raw text shown, inert, if the children throw; a new text tries the children again (a streaming answer). */
  readonly rawText: string;
  readonly children: ReactNode;
}

interface RenderBoundaryState {
  readonly hasFailed: boolean;
  readonly rawText: string;
}

/**
 * Keeps one message or card from taking the page down: if rendering it throws (a stack overflow in the markdown
 * parser, say), it shows the raw text as plain text, with a note, and the rest of the app goes on.
 */
export class RenderBoundary extends Component<RenderBoundaryProps, RenderBoundaryState> {
  override state: RenderBoundaryState = { hasFailed: false, rawText: this.props.rawText };

  static getDerivedStateFromError(): Partial<RenderBoundaryState> {
    return { hasFailed: true };
  }

  static getDerivedStateFromProps(props: RenderBoundaryProps, state: RenderBoundaryState) {
    return props.rawText === state.rawText ? null : { hasFailed: false, rawText: props.rawText };
  }

  override render() {
    if (!this.state.hasFailed) return this.props.children;
    return (
      <PlainFallback
        note={`${this.props.what} could not be formatted; its text is shown as it is.`}
        text={this.props.rawText}
      />
    );
  }
}

/** Untrusted text as inert plain text, under a note saying why it is not formatted. */
export function PlainFallback({ note, text }: { note: string; text: string }) {
  return (
    <div className="render-fallback">
      <p className="muted note">{note}</p>
      <p className="markdown-plain">{text}</p>
    </div>
  );
}
