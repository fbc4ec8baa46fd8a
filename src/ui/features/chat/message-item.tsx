import { memo } from 'react';
import type { ContentBlock, Message } from '../../../domain/message';
import type { ToolCallTrace } from '../../../domain/trace';
import { Markdown } from '../../components/markdown';
import { ToolCard } from './tool-card';

type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;

export interface MessageItemProps {
  readonly message: Message;
  readonly results: ReadonlyMap<string, ToolResult>;
  readonly toolTraces: ReadonlyMap<string, ToolCallTrace>;
  /** The thread's last message: its error is announced and can be retried. */
  readonly isLast: boolean;
  /** Set when Retry is offered for this message. */
  readonly onRetry?: (byKeyboard: boolean) => void;
}

/** One message: text, thinking, tool cards, and its state (streaming, stopped, failed with Retry). */
export const MessageItem = memo(function MessageItem({
  message,
  results,
  toolTraces,
  isLast,
  onRetry,
}: MessageItemProps) {
  return (
    <div className={`message message-${message.role}`} data-status={message.status}>
      {message.blocks.map((block, i) => {
        switch (block.type) {
          case 'text':
            return message.role === 'assistant' ? (
              <Markdown key={i} text={block.text} />
            ) : (
              <p key={i} className="user-text">
                {block.text}
              </p>
            );
          case 'thinking':
            return (
              <details key={i} className="thinking">
                <summary>Thinking</summary>
                <p>{block.thinking}</p>
              </details>
            );
          case 'tool_use':
            return (
              <ToolCard key={block.id} use={block} result={results.get(block.id)} trace={toolTraces.get(block.id)} />
            );
          default:
            return null;
        }
      })}
      {message.status === 'streaming' && (
        <span className="typing" aria-label="Answer in progress">
          …
        </span>
      )}
      {message.status === 'interrupted' && (
        <p className="muted note">{message.error ?? 'Stopped; the answer above is partial.'}</p>
      )}
      {message.error && message.status === 'error' && (
        <div className="message-error">
          {/* Only the latest failure is announced (rows re-mount as the list scrolls); an earlier one is history. */}
          {isLast ? (
            <p className="field-error" role="alert">
              {message.error}
            </p>
          ) : (
            <p className="muted note">This attempt failed: {message.error}</p>
          )}
          {onRetry && (
            <button type="button" className="retry" onClick={(event) => onRetry(event.detail === 0)}>
              Retry
            </button>
          )}
        </div>
      )}
    </div>
  );
});
