import { AttachmentChips } from '../../components/attachment-chip';
import { memo, useEffect, useRef, useState } from 'react';
import type { ContentBlock, Message } from '../../../domain/message';
import { CopyButton } from '../../components/copy-button';
import { ANTHROPIC_CODE_EXECUTION_NAME, EXECUTE_CODE_NAME } from '../../../domain/code-names';
import type { CodeExecutionTrace, ToolCallTrace } from '../../../domain/trace';
import { jsonSummary } from '../../components/json-view';
import { Markdown } from '../../components/markdown';
import { RenderBoundary } from '../../components/render-boundary';
import { CodeCard } from './code-card';
import { MessageEditor, VersionSwitcher, type BranchControls } from './message-branches';
import { ToolCard } from './tool-card';

type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;

export interface MessageItemProps {
  readonly message: Message;
  readonly results: ReadonlyMap<string, ToolResult>;
  readonly toolTraces: ReadonlyMap<string, ToolCallTrace>;
  /** execute_code calls' traces by tool_use id, and the calls each one's code made. */
  readonly codeTraces: ReadonlyMap<string, { trace?: CodeExecutionTrace; inner: ToolCallTrace[] }>;
  /** The thread's last message: its error is announced and can be retried. */
  readonly isLast: boolean;
  /** The tool calls the person is being asked to approve now. */
  readonly awaitingIds?: ReadonlySet<string>;
  /** A turn runs in this thread: a call without a result is running (or about to). */
  readonly isTurnRunning?: boolean;
  /** Set when Retry is offered for this message. */
  readonly onRetry?: (byKeyboard: boolean) => void;
  /** Versions, Edit (a person's message) and Regenerate (the last message of an answer), when the thread offers them. */
  readonly branches?: BranchControls;
  /** The message ends an answer: Regenerate goes here. */
  readonly isAnswerEnd?: boolean;
}

/** One message: text, thinking, tool cards, and its state; a message that cannot be rendered shows its raw text. */
export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  return (
    <RenderBoundary what="This message" rawText={rawText(props.message)}>
      <MessageBody {...props} />
    </RenderBoundary>
  );
});

/** The message as plain text, for when it cannot be rendered. */
function rawText(message: Message): string {
  return message.blocks
    .map((block) =>
      block.type === 'text'
        ? block.text
        : block.type === 'thinking'
          ? block.thinking
          : block.type === 'tool_use'
            ? `[tool call ${block.name}]`
            : '',
    )
    .filter(Boolean)
    .join('\n\n');
}

function MessageBody({
  message,
  results,
  toolTraces,
  codeTraces,
  isLast,
  onRetry,
  awaitingIds,
  isTurnRunning = false,
  branches,
  isAnswerEnd = false,
}: MessageItemProps) {
  const text = messageText(message);
  const [isEditing, setIsEditing] = useState(false);
  // Cancel's button goes with the editor: focus goes back to this message's Edit rather than to the page.
  const editButton = useRef<HTMLButtonElement>(null);
  const isBackFromEdit = useRef(false);
  useEffect(() => {
    if (isEditing || !isBackFromEdit.current) return;
    isBackFromEdit.current = false;
    editButton.current?.focus();
  }, [isEditing]);
  const isPerson = message.role === 'user' && text !== '';
  const versions = branches?.versions.get(message.id);
  // A failed answer offers Retry only; Regenerate is for an answer that came.
  const canRegenerate =
    branches !== undefined && isAnswerEnd && message.role === 'assistant' && !(message.status === 'error' && onRetry);
  if (isEditing && branches && isPerson)
    return (
      <div className="message message-user message-editing" data-status={message.status}>
        <MessageEditor
          initialText={text}
          attachments={message.attachments}
          isDisabled={isTurnRunning}
          onCancel={() => {
            isBackFromEdit.current = true;
            setIsEditing(false);
          }}
          onSend={(edited, keptAttachmentIds) => {
            setIsEditing(false);
            branches.onEdit(message.id, edited, keptAttachmentIds);
          }}
        />
      </div>
    );
  // Who wrote it, for a screen reader (and its heading keys jump from message to message); the look says it already.
  const author = isPerson ? 'You said:' : message.role === 'assistant' ? 'Claude said:' : undefined;
  return (
    <div className={`message message-${message.role}`} data-status={message.status}>
      {author && <h3 className="visually-hidden">{author}</h3>}
      {message.attachments && message.attachments.length > 0 && (
        <AttachmentChips attachments={message.attachments} label="Attachments" />
      )}
      {message.blocks.map((block, i) => {
        switch (block.type) {
          case 'text':
            return message.role === 'assistant' ? (
              <Markdown key={i} text={block.text} isStreaming={message.status === 'streaming'} />
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
          // Anthropic's code execution (programmatic tool calling): the code's card, its calls nested inside it.
          case 'server_tool_use':
            return block.name === ANTHROPIC_CODE_EXECUTION_NAME ? (
              <RenderBoundary key={block.id} what="This code" rawText={safeSummary(block.input)}>
                <CodeCard
                  use={block}
                  trace={codeTraces.get(block.id)?.trace}
                  innerCalls={codeTraces.get(block.id)?.inner ?? []}
                />
              </RenderBoundary>
            ) : null;
          case 'tool_use':
            if (block.caller) return null;
            return (
              <RenderBoundary
                key={block.id}
                what="This tool call"
                rawText={`${block.name} ${safeSummary(block.input)}`}
              >
                {block.name === EXECUTE_CODE_NAME ? (
                  <CodeCard
                    use={block}
                    result={results.get(block.id)}
                    trace={codeTraces.get(block.id)?.trace}
                    innerCalls={codeTraces.get(block.id)?.inner ?? []}
                    // The code's own calls are `${id}:${n}`: the one waiting for the person says so on the card.
                    {...(awaitingIds ? { awaitingIds } : {})}
                  />
                ) : (
                  <ToolCard
                    use={block}
                    result={results.get(block.id)}
                    trace={toolTraces.get(block.id)}
                    isAwaitingApproval={awaitingIds?.has(block.id) ?? false}
                    isTurnRunning={isTurnRunning}
                  />
                )}
              </RenderBoundary>
            );
          default:
            return null;
        }
      })}
      {/* A failed attempt's error comes first, then what can be done with the message. */}
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
      {message.status !== 'streaming' && (text || versions || canRegenerate) && (
        <div className="message-actions">
          {versions && branches && (
            <VersionSwitcher
              messageId={message.id}
              versions={versions}
              isDisabled={isTurnRunning}
              onShow={branches.onShowVersion}
            />
          )}
          {text && <CopyButton text={text} label={message.role === 'user' ? 'Copy your message' : 'Copy answer'} />}
          {branches && isPerson && (
            <button
              ref={editButton}
              type="button"
              className="secondary small"
              disabled={isTurnRunning}
              onClick={() => setIsEditing(true)}
            >
              Edit
            </button>
          )}
          {branches && canRegenerate && (
            <button
              type="button"
              className="secondary small"
              disabled={isTurnRunning}
              onClick={() => branches.onRegenerate(message.id)}
            >
              Regenerate
            </button>
          )}
        </div>
      )}
      {message.status === 'streaming' && (
        <span className="typing" role="img" aria-label="Answer in progress">
          …
        </span>
      )}
      {/* An answer that ended before it was done (the length limit, a refusal) says so: it looks finished otherwise. */}
      {message.status === 'complete' && message.error && message.role === 'assistant' && (
        <p className="muted note">{message.error}</p>
      )}
      {message.status === 'interrupted' && (
        <p className="muted note">{message.error ?? 'Stopped; the answer above is partial.'}</p>
      )}
    </div>
  );
}

/** The message's own words (its text blocks), as Copy takes them: no thinking, no tool calls. */
function messageText(message: Message): string {
  return message.blocks
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n\n')
    .trim();
}

/** The tool's input as short text for the card's fallback; whatever the input, this never throws. */
function safeSummary(input: unknown): string {
  try {
    return jsonSummary(input);
  } catch {
    return '(its arguments cannot be shown)';
  }
}
