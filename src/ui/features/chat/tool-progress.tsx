import { createContext, useContext } from 'react';
import type { ToolProgress } from '../../../domain/tool-result';

/** The latest progress notification of each tool call in flight, by tool_use id; provided by the chat. */
export const ToolProgressContext = createContext<Readonly<Record<string, ToolProgress>>>({});

/**
 * A running call's progress as its server reports it: a bar with the message when the total is known, otherwise an
 * activity line with the latest message.
 */
export function ToolProgressLine({ toolUseId }: { toolUseId: string }) {
  const progress = useContext(ToolProgressContext)[toolUseId];
  if (!progress) return null;
  const { total, message } = progress;
  const hasTotal = total !== undefined && total > 0;
  return (
    <div className="tool-progress" role="status" aria-label="Progress">
      {hasTotal ? (
        <>
          <progress max={total} value={Math.min(progress.progress, total)} />
          <span>
            {Math.round((Math.min(progress.progress, total) / total) * 100)}%{message ? ` · ${message}` : ''}
          </span>
        </>
      ) : (
        <span className="muted">Working… {message ?? `step ${progress.progress}`}</span>
      )}
    </div>
  );
}
