import type { ContentBlock } from '../../../domain/message';
import type { ToolCallTrace } from '../../../domain/trace';
import { JsonView } from '../../components/json-view';
import { SentNote } from './sent-note';
import { ToolProgressLine } from './tool-progress';
import { ToolResultView } from './tool-result-view';

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;
type ToolResult = Extract<ContentBlock, { type: 'tool_result' }>;

const APPROVAL_LABEL: Record<string, string> = {
  'allow-once': 'allowed once',
  'allow-thread': 'allowed for this thread',
  'allow-always': 'always allowed',
  deny: 'denied',
  'auto-allow': 'allowed automatically',
};

/** A tool call as a collapsible card: server, tool, arguments, result (text and images), error, time, approval. */
export function ToolCard({ use, result, trace }: { use: ToolUse; result?: ToolResult; trace?: ToolCallTrace }) {
  const [server, tool] = splitName(use.name);
  const state = !result ? 'running' : result.is_error ? 'error' : 'done';
  return (
    <>
      <details className={`tool-card tool-${state}`}>
        <summary>
          <span className="tool-name">
            {server && <span className="muted">{server} · </span>}
            {tool}
          </span>
          <span className="muted">
            {state === 'running' ? 'running…' : state === 'error' ? 'failed' : 'done'}
            {trace ? ` · ${Math.round(trace.durationMs)} ms` : ''}
            {trace?.approval ? ` · ${APPROVAL_LABEL[trace.approval.decision] ?? trace.approval.decision}` : ''}
          </span>
        </summary>
        <h4>Arguments</h4>
        <JsonView className="arguments" value={use.input} />
        {result && trace?.shown && (
          <>
            <h4>{result.is_error ? 'Error' : 'Result'}</h4>
            <ToolResultView shown={trace.shown} serverId={trace.serverId} tool={tool} />
            {trace.sent && <SentNote sent={trace.sent} />}
          </>
        )}
        {result && !trace?.shown && (
          <>
            <h4>{result.is_error ? 'Error' : 'Result'}</h4>
            {result.content.map((item, i) =>
              item.type === 'text' ? (
                <pre key={i} className="result-text">
                  {item.text}
                </pre>
              ) : item.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(item.source.media_type) ? (
                <img
                  key={i}
                  className="result-image"
                  alt={`Image returned by ${tool}`}
                  src={`data:${item.source.media_type};base64,${item.source.data}`}
                />
              ) : (
                <p key={i} className="muted">
                  [{item.type === 'tool_reference' ? `tool ${item.tool_name}` : item.type}]
                </p>
              ),
            )}
          </>
        )}
      </details>
      {state === 'running' && <ToolProgressLine toolUseId={use.id} />}
    </>
  );
}

function splitName(name: string): [string | undefined, string] {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? [match[1], match[2]!] : [undefined, name];
}
