import { useEffect, useRef } from 'react';
import type { ContentBlock, Message } from '../../../domain/message';
import type { ToolCallTrace } from '../../../domain/trace';
import { Markdown } from '../../components/markdown';
import { ToolCard } from './tool-card';

type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;

/** The thread's messages; tool results are shown inside the card of the call they answer. */
export function MessageList({ messages }: { messages: readonly Message[] }) {
  const results = new Map<string, ToolResult>();
  const traces = new Map<string, ToolCallTrace>();
  for (const message of messages) {
    for (const block of message.blocks) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
    for (const entry of message.trace) if (entry.kind === 'tool-call') traces.set(entry.toolUseId, entry);
  }
  const end = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, last?.updatedAt, last?.blocks.length]);

  const visible = messages.filter((m) => m.blocks.some((b) => b.type !== 'tool_result') || m.error);
  if (visible.length === 0) return <p className="empty muted">No messages yet. Ask something below.</p>;
  return (
    <>
    <ol className="messages" aria-label="Messages">
      {visible.map((message) => (
        <li key={message.id} className={`message message-${message.role} status-${message.status}`}>
          {message.blocks.map((block, i) => {
            switch (block.type) {
              case 'text':
                return message.role === 'assistant' ? <Markdown key={i} text={block.text} /> : <p key={i} className="user-text">{block.text}</p>;
              case 'thinking':
                return (
                  <details key={i} className="thinking">
                    <summary>Thinking</summary>
                    <p>{block.thinking}</p>
                  </details>
                );
              case 'tool_use':
                return <ToolCard key={block.id} use={block} result={results.get(block.id)} trace={traces.get(block.id)} />;
              default:
                return null;
            }
          })}
          {message.status === 'streaming' && <span className="typing" aria-label="Answer in progress">…</span>}
          {message.status === 'interrupted' && <p className="muted note">{message.error ?? 'Stopped; the answer above is partial.'}</p>}
          {message.error && message.status === 'error' && (
            <p className="field-error" role="alert">
              {message.error}
            </p>
          )}
        </li>
      ))}
    </ol>
    <div ref={end} />
    </>
  );
}
